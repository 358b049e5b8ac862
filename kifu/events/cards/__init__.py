"""Card catalogues as data: facts only (names, numbers, kinds, costs, limits), in our own words."""
