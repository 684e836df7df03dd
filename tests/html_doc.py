"""A small HTML tree for the report tests (standard library html.parser only): find elements
by tag and attributes, read their attributes and text."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Optional

VOID = {"meta", "br", "input", "img", "link", "hr", "col", "area", "base", "source", "wbr"}


class Element:
    def __init__(
        self, tag: str, attrs: dict[str, Optional[str]], parent: Optional[Element]
    ) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element] = []
        self.parts: list[str | Element] = []

    def get(self, name: str) -> Optional[str]:
        return self.attrs.get(name)

    @property
    def text(self) -> str:
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, tag: Optional[str] = None, **attrs: Optional[str]) -> list[Element]:
        def ok(e: Element) -> bool:
            if tag is not None and e.tag != tag:
                return False
            for k, v in attrs.items():
                key = k.replace("_", "-")
                if v is None:
                    if key not in e.attrs:
                        return False
                elif e.attrs.get(key) != v:
                    return False
            return True

        return [e for e in self.iter() if ok(e)]

    def find(self, tag: Optional[str] = None, **attrs: Optional[str]) -> Optional[Element]:
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def by_id(self, element_id: str) -> Optional[Element]:
        return self.find(id=element_id)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {}, None)
        self.cur = self.root
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        e = Element(tag, dict(attrs), self.cur)
        self.cur.children.append(e)
        self.cur.parts.append(e)
        if tag not in VOID:
            self.cur = e

    def handle_startendtag(self, tag, attrs):
        e = Element(tag, dict(attrs), self.cur)
        self.cur.children.append(e)
        self.cur.parts.append(e)

    def handle_endtag(self, tag):
        e = self.cur
        while e is not None and e.tag != tag:
            e = e.parent
        if e is not None and e.parent is not None:
            self.cur = e.parent

    def handle_data(self, data):
        self.cur.parts.append(data)


def parse(source: str | Path) -> Element:
    """The tree of an HTML text or file."""
    text = Path(source).read_text(encoding="utf-8") if isinstance(source, Path) else source
    b = _Builder()
    b.feed(text)
    b.close()
    b.root.attrs["doctype"] = b.doctype
    return b.root


def heat_cells(doc: Element, name: str) -> dict[str, Element]:
    """The cells of heatmap ``name`` by their ``data-cell``."""
    table = doc.by_id(f"heatmap-{name}")
    assert table is not None, f"no heatmap {name}"
    return {td.get("data-cell"): td for td in table.find_all("td") if td.get("data-cell")}
