"""The game layer: which game is played and with what setup (:mod:`ketharmad.game.spec`)."""

from .spec import GameSpec, load_game, resolve

__all__ = ["GameSpec", "load_game", "resolve"]
