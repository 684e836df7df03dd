"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``; docs/testing.md "The docs site").

The site's home page is the README: ``index.md`` is generated from ``README.md`` at every build
(it is not a file in ``docs/``, so the two cannot drift apart), with its links into ``docs/``
made relative to the site (``docs/install.md`` -> ``install.md``). A README link to anything
else in the repository is left as it is, so the strict build reports it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# a Markdown link or image target that starts with docs/: ](docs/...)
DOCS_LINK = re.compile(r"\]\(docs/")


def index_from_readme(text: str) -> str:
    """The README's text with its ``docs/`` links made relative to the docs folder."""
    return DOCS_LINK.sub("](", text)


def on_files(files: Files, config: Any) -> Files:
    if files.get_file_from_path("index.md") is not None:
        raise ValueError("docs/index.md exists: the home page is generated from README.md")
    content = index_from_readme(README.read_text(encoding="utf-8"))
    files.append(File.generated(config, "index.md", content=content))
    return files
