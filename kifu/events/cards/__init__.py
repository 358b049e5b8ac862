"""Card catalogues as data: facts only, in our own words, with typed loaders."""
