"""Card and trigger catalogues as data (facts only), with typed loaders."""
