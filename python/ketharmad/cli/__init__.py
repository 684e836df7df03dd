"""The ``ketharmad`` command (``ketharmad.cli:main``): ``main`` parses and runs the commands,
``args`` holds the shared argument parsing, ``lab`` the options of the lab commands, and one
module per lab command (``matchups``, ``card_stats``, ``sweep``, ``tournament``, ``harness``,
``balance``) its wiring. Nothing in the package imports this layer."""

from ..game.data import CARD_DATA_HELP
from .args import PARAMS_FILE_HELP, _params, parse_param
from .main import _parser, main

__all__ = ["main", "parse_param", "PARAMS_FILE_HELP", "CARD_DATA_HELP", "_params", "_parser"]
