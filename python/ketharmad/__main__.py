"""``python -m ketharmad``: same as the ``ketharmad`` command."""

from .cli.main import main

raise SystemExit(main())
