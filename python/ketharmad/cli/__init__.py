"""The ``ketharmad`` command (``ketharmad.cli:main``): ``main`` parses and runs the commands,
``lab`` and ``balance`` add the lab commands. Nothing in the package imports this layer."""

from .main import PARAMS_FILE_HELP, _params, _parser, main, parse_param

__all__ = ["main", "parse_param", "PARAMS_FILE_HELP", "_params", "_parser"]
