#!/usr/bin/env python3
"""The import graph of a Python package, every import counted.

Reads every ``.py`` file under the package directory with :mod:`ast` (the package itself is
never imported) and resolves each import of one of its own modules: absolute
(``import ketharmad.x``, ``from ketharmad.x import y``) and relative (``from . import x``,
``from .x import y``, ``from .. import z``). ``from .pkg import name`` is an edge to the
submodule ``pkg.name`` when that submodule exists, else to ``pkg``. A package's ``__init__.py``
is the module of the package itself. Imports at module level, inside functions and classes,
and inside ``if TYPE_CHECKING:`` blocks all count.

Prints a summary (modules, edges, imports of package modules inside functions, the layer of
each module: 0 for a module importing no package module, else one more than the highest
layer it imports), then every strongly connected component with more than one module and
every self-edge. Exits 1 if there is any cycle.

    python3 tools/import_graph.py [PACKAGE_DIR] [--dot] [--quiet]

``PACKAGE_DIR`` defaults to ``python/ketharmad`` next to this script's parent. ``--dot``
prints the graph in Graphviz format instead of the summary; ``--quiet`` prints only the
problems (cycles). Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Edge:
    src: str
    dst: str
    line: int
    in_function: bool
    type_checking: bool


@dataclass
class Graph:
    package: str
    modules: dict[str, Path] = field(default_factory=dict)
    packages: set[str] = field(default_factory=set)
    edges: list[Edge] = field(default_factory=list)

    def targets(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for e in self.edges:
            out[e.src].add(e.dst)
        return out


def module_names(root: Path) -> tuple[dict[str, Path], set[str]]:
    """Dotted module name -> file, for every ``.py`` under ``root`` (the package directory)."""
    pkg = root.name
    modules: dict[str, Path] = {}
    packages: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            packages.add(".".join(parts))
        modules[".".join(parts)] = path
    # compiled extensions (``_core.abi3.so``) and stubs: leaf modules with no imports read
    for path in sorted([*root.rglob("*.so"), *root.rglob("*.pyd"), *root.rglob("*.pyi")]):
        rel = path.relative_to(root.parent)
        parts = [*rel.parts[:-1], rel.name.split(".")[0]]
        modules.setdefault(".".join(parts), path)
    if pkg not in modules:
        modules[pkg] = root / "__init__.py"
        packages.add(pkg)
    return modules, packages


class _Visitor(ast.NodeVisitor):
    def __init__(self, graph: Graph, module: str) -> None:
        self.graph = graph
        self.module = module
        self.is_package = module in graph.packages
        self.func_depth = 0
        self.tc_depth = 0
        self.found: list[Edge] = []

    # scopes -------------------------------------------------------------------------------
    def _function(self, node: ast.AST) -> None:
        self.func_depth += 1
        self.generic_visit(node)
        self.func_depth -= 1

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function
    visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            self.tc_depth += 1
            for child in node.body:
                self.visit(child)
            self.tc_depth -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    # imports ------------------------------------------------------------------------------
    def _add(self, target: str, line: int) -> None:
        target = self._known(target)
        if target is None:
            return
        self.found.append(Edge(self.module, target, line, self.func_depth > 0, self.tc_depth > 0))

    def _known(self, name: str) -> str | None:
        """The longest prefix of ``name`` that is a module of the package."""
        parts = name.split(".")
        while parts:
            cand = ".".join(parts)
            if cand in self.graph.modules:
                return cand
            parts.pop()
        return None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == self.graph.package or alias.name.startswith(self.graph.package + "."):
                self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.module if self.is_package else self.module.rpartition(".")[0]
            parts = base.split(".") if base else []
            up = node.level - 1
            if up > len(parts):
                return
            parts = parts[: len(parts) - up] if up else parts
            base = ".".join(parts)
            mod = f"{base}.{node.module}" if node.module else base
        else:
            mod = node.module or ""
            if not (mod == self.graph.package or mod.startswith(self.graph.package + ".")):
                return
        for alias in node.names:
            sub = f"{mod}.{alias.name}"
            if alias.name != "*" and sub in self.graph.modules:
                self._add(sub, node.lineno)
            else:
                self._add(mod, node.lineno)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    if isinstance(test, ast.Attribute):
        return test.attr == "TYPE_CHECKING"
    return False


def build(root: Path) -> Graph:
    root = root.resolve()
    modules, packages = module_names(root)
    graph = Graph(root.name, modules, packages)
    for name, path in modules.items():
        if path.suffix != ".py" or not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        v = _Visitor(graph, name)
        v.visit(tree)
        seen: set[tuple[str, int]] = set()
        for e in v.found:  # one edge per import statement and target module
            if (e.dst, e.line) not in seen:
                seen.add((e.dst, e.line))
                graph.edges.append(e)
    return graph


def sccs(adj: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(adj):
        if start in index:
            continue
        work = [(start, iter(sorted(adj[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(adj[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
    return out


def layers(adj: dict[str, set[str]], comps: list[list[str]]) -> dict[str, int]:
    """0 for a module importing no package module, else 1 + the highest layer it imports
    (a cycle's modules share one layer)."""
    comp_of = {m: i for i, c in enumerate(comps) for m in c}
    memo: dict[int, int] = {}
    # Tarjan emits components in reverse topological order: dependencies first.
    for i, comp in enumerate(comps):
        deps = {comp_of[d] for m in comp for d in adj[m]} - {i}
        memo[i] = 1 + max((memo[d] for d in deps), default=-1)
    return {m: memo[comp_of[m]] for m in adj}


def _part(name: str, package: str) -> str:
    """The top-level part of a module: its subpackage or top-level module (the root: the package)."""
    short = _short(name, package)
    return short.split(".")[0] if short != package else package


def _short(name: str, package: str) -> str:
    return name[len(package) + 1 :] if name.startswith(package + ".") else name


def main(argv: list[str] | None = None) -> int:
    default = Path(__file__).resolve().parent.parent / "python" / "ketharmad"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "package",
        nargs="?",
        type=Path,
        default=default,
        help="the package directory (default: python/ketharmad)",
    )
    ap.add_argument("--dot", action="store_true", help="print the graph in Graphviz format")
    ap.add_argument("--quiet", action="store_true", help="print only problems")
    args = ap.parse_args(argv)

    graph = build(args.package)
    adj = graph.targets()
    comps = sccs(adj)
    cycles = [c for c in comps if len(c) > 1]
    self_edges = sorted({e.src for e in graph.edges if e.src == e.dst})
    lay = layers(adj, comps)
    pkg = graph.package

    if args.dot:
        print(f'digraph "{pkg}" {{')
        print("  rankdir=BT; node [shape=box, fontsize=10];")
        for m in sorted(adj):
            print(f'  "{_short(m, pkg)}";')
        seen: set[tuple[str, str]] = set()
        for e in graph.edges:
            key = (e.src, e.dst)
            if key in seen:
                continue
            seen.add(key)
            style = " [style=dashed]" if e.in_function or e.type_checking else ""
            print(f'  "{_short(e.src, pkg)}" -> "{_short(e.dst, pkg)}"{style};')
        print("}")
    elif not args.quiet:
        distinct = {(e.src, e.dst) for e in graph.edges}
        in_func = [e for e in graph.edges if e.in_function]
        tc = [e for e in graph.edges if e.type_checking]
        print(
            f"package {pkg}: {len(graph.modules)} modules, {len(distinct)} edges "
            f"({len(graph.edges)} import statements of package modules: {len(in_func)} inside "
            f"functions, {len(tc)} under TYPE_CHECKING)"
        )
        by_layer: dict[int, list[str]] = {}
        for m, n in lay.items():
            by_layer.setdefault(n, []).append(_short(m, pkg))
        for n in sorted(by_layer):
            print(f"  layer {n}: {', '.join(sorted(by_layer[n]))}")
        parts: dict[str, set[str]] = {}
        for e in graph.edges:
            a, b = _part(e.src, pkg), _part(e.dst, pkg)
            if a != b:
                parts.setdefault(a, set()).add(b)
        print("arrows between the top-level parts (subpackages and modules):")
        for a in sorted(parts, key=lambda x: (-len(parts[x]), x)):
            print(f"  {a} -> {', '.join(sorted(parts[a]))}")
        if in_func:
            print("imports of package modules inside functions:")
            for e in sorted(in_func, key=lambda e: (e.src, e.line)):
                print(
                    f"  {graph.modules[e.src].relative_to(args.package.resolve().parent)}:{e.line}"
                    f": {_short(e.src, pkg)} -> {_short(e.dst, pkg)}"
                )

    status = 0
    if cycles or self_edges:
        status = 1
        out = sys.stdout if not args.dot else sys.stderr
        for c in cycles:
            print(f"cycle ({len(c)} modules): {', '.join(_short(m, pkg) for m in c)}", file=out)
            members = set(c)
            for e in sorted(graph.edges, key=lambda e: (e.src, e.line)):
                if e.src in members and e.dst in members:
                    where = (
                        "in function"
                        if e.in_function
                        else "TYPE_CHECKING"
                        if e.type_checking
                        else "module level"
                    )
                    print(
                        f"    {_short(e.src, pkg)}:{e.line} -> {_short(e.dst, pkg)} ({where})",
                        file=out,
                    )
        for m in self_edges:
            print(f"self-import: {_short(m, pkg)}", file=out)
    elif not args.dot and not args.quiet:
        print("no cycle")
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # piped into head
        sys.exit(0)
