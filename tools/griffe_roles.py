"""Griffe extension of the API reference (mkdocs.yml, mkdocstrings ``extensions:``): the Sphinx
roles of the docstrings (:func:`simulate`, :class:`~ketharmad.GameSpec`, :meth:`Game.step`, ...)
become links where the target is on the reference's pages and code spans elsewhere.

A role's target is looked up as Sphinx would: as written, then in the scope of the documented
object (its class, its module and each package above it), then in the ``ketharmad`` package.

* Found, and documented in the reference (a public name of ``ketharmad.__all__`` or a member of
  one): a cross-reference ``[`simulate()`][ketharmad.simulate]``, which the strict build checks.
* Found but not documented there (a private module, an inherited method): a code span.
* Not found: a warning naming the docstring and the role, so ``mkdocs build --strict`` fails on
  a docstring that names something renamed or removed. Targets outside the package
  (``numpy.random.Generator``, a dotted name not under ``ketharmad``) and builtins
  (``DeprecationWarning``) are code spans.
"""

from __future__ import annotations

import builtins
import re
from typing import Any

import griffe

ROOT_PACKAGE = "ketharmad"
ROLE = re.compile(r":(?:py:)?(func|meth|class|mod|attr|data|exc|obj):`(~?)([^`<>]+)`")
logger = griffe.get_logger("griffe_roles")


def _lookup(collection: Any, path: str, depth: int = 0) -> Any | None:
    """The object at ``path``, or None: aliases followed, a class's inherited members (those of
    ``_core``'s classes, from ``_core.pyi``, too) included."""
    head, *rest = path.split(".")
    if head not in collection.members or depth > 20:
        return None
    obj = collection.members[head]
    try:
        for name in rest:
            if obj.is_alias:
                obj = obj.final_target
            members = _class_members(collection, obj, depth) if obj.is_class else obj.members
            if name not in members:
                return None
            obj = members[name]
        return obj.final_target if obj.is_alias else obj
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _class_members(collection: Any, cls: Any, depth: int) -> dict[str, Any]:
    """A class's members with those of its bases. The bases are looked up in the class's module
    (griffe's own ``all_members`` misses the base of ``class Game(_core.Game)``: it looks
    ``_core`` up in the class, which has a method of that name)."""
    out: dict[str, Any] = {}
    for base in cls.bases:
        found = _lookup(collection, f"{cls.module.path}.{base}", depth + 1)
        if found is not None and found.is_class:
            out.update(_class_members(collection, found, depth + 1))
    out.update(cls.members)
    return out


def _scopes(obj: Any) -> list[str]:
    """The paths a role in ``obj``'s docstring is resolved in: the object (a class or a module),
    its parents, and the root package."""
    out = []
    node = obj if (obj.is_class or obj.is_module) else obj.parent
    while node is not None:
        out.append(node.path)
        node = node.parent
    return out


def _documented(pkg: Any) -> dict[str, str]:
    """Canonical path -> public path of every object the reference documents: each name of
    ``__all__`` and, under it, its members (not private, not inherited), recursively."""
    out: dict[str, str] = {}

    def walk(obj: Any, public: str) -> None:
        if obj.path in out:
            return
        out[obj.path] = public
        if obj.is_class or obj.is_module:
            for name, member in obj.members.items():
                # what mkdocstrings renders: not private (filters), not imported, not inherited
                # (inherited_members), not without a docstring (show_if_no_docstring)
                if name.startswith("_") or member.is_alias or not member.has_docstrings:
                    continue
                walk(member, f"{public}.{name}")

    for name in pkg.exports or ():
        name = name if isinstance(name, str) else name.name
        target = _lookup(pkg.modules_collection, f"{pkg.path}.{name}")
        if target is not None:
            walk(target, f"{pkg.path}.{name}")
    return out


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: Any, loader: Any, **kwargs: Any) -> None:
        if pkg.path != ROOT_PACKAGE:
            return
        documented = _documented(pkg)
        seen: set[str] = set()

        def visit(obj: Any) -> None:
            if obj.is_alias or obj.path in seen:
                return
            seen.add(obj.path)
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = ROLE.sub(
                    lambda m: self._replace(m, obj, loader.modules_collection, documented),
                    obj.docstring.value,
                )
            for member in obj.members.values():
                visit(member)

        visit(pkg)

    @staticmethod
    def _replace(
        match: re.Match[str], obj: Any, collection: Any, documented: dict[str, str]
    ) -> str:
        role, short = match.group(1), match.group(2) == "~"
        target = re.sub(r"\s+", "", match.group(3)).lstrip(".")  # a role may wrap a line
        shown = target.rsplit(".", 1)[-1] if short else target
        if role in ("func", "meth"):
            shown += "()"
        found = None
        for path in [target] + [f"{scope}.{target}" for scope in _scopes(obj)]:
            found = _lookup(collection, path)
            if found is not None:
                break
        if found is None:
            head = target.split(".", 1)[0]
            if (head != ROOT_PACKAGE and "." in target) or hasattr(builtins, target):
                return f"`{shown}`"  # another library's object, or a builtin
            where = obj.docstring.lineno if obj.docstring else None
            logger.warning(
                f"{obj.relative_filepath}:{where}: {match.group(0)} in the docstring of "
                f"{obj.path} names nothing that exists"
            )
            return f"`{shown}`"
        public = documented.get(found.path)
        if public is None:
            return f"`{shown}`"
        return f"[`{shown}`][{public}]"
