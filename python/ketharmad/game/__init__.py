"""The game layer: the only code that knows which game it is (card data, decks, formats,
bots, validation, the core's table of harness games). Imports nothing above it."""
