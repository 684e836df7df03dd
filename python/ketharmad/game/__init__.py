"""The game layer: the only code that knows which game it is (card data, decks, formats,
bots, validation, the core's table of harness games). Imports nothing above it."""

from .spec import GameSpec, load_game, resolve

__all__ = ["GameSpec", "load_game", "resolve"]
