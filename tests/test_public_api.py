"""Every public call of ``ketharmad`` says what it returns (issue 23: "every public call has a
concrete return type"); ``py.typed`` is shipped, so mypy users read these annotations."""

from __future__ import annotations

import inspect

import ketharmad


def _public_functions() -> list[tuple[str, inspect.Signature]]:
    out = []
    for name in ketharmad.__all__:
        obj = getattr(ketharmad, name)
        if callable(obj) and not isinstance(obj, type):
            out.append((name, inspect.signature(obj)))
    return out


def test_there_are_public_functions_to_check() -> None:
    names = {n for n, _ in _public_functions()}
    assert {"simulate", "matchups", "sweep", "balance", "tournament", "load_game", "games"} <= names


def test_every_public_function_has_a_concrete_return_type() -> None:
    loose = [
        (name, sig.return_annotation)
        for name, sig in _public_functions()
        if sig.return_annotation is inspect.Signature.empty
        or str(sig.return_annotation).strip("'\"") in ("Any", "typing.Any", "object")
    ]
    assert loose == []
