"""``python -m ketharmad``: same as the ``ketharmad`` command."""

from .cli import main

raise SystemExit(main())
