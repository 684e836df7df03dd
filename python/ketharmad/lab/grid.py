"""The points of a sweep grid, for every game's sweep (:func:`grid_points`)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from typing import Any, Optional

import numpy as np

from ..game.validate import check_params

__all__ = ["grid_points"]


def _values(name: str, values: object) -> list[Any]:
    if isinstance(values, (str, bool, int, float, np.integer, np.floating, np.bool_)):
        return [values]
    if isinstance(values, (list, tuple, range, np.ndarray)):
        out = list(values)
        if not out:
            raise ValueError(f"grid: parameter {name!r} has an empty list of values")
        return out
    raise ValueError(
        f"grid: the values of {name!r} must be a list such as [4, 5, 6], "
        f"got {type(values).__name__}"
    )


def grid_points(
    grid: object, check: Optional[Callable[[Mapping[str, Any]], dict[str, Any]]] = None
) -> list[dict[str, Any]]:
    """The points of a grid: a dict ``{name: [values]}`` (the Cartesian product, first name
    varying slowest) or an explicit list of point dicts ``[{name: value}, ...]``. ``check``
    turns a point into plain values (default: Kétharmad's :func:`check_params`; the harness
    games pass their registry's check)."""
    if isinstance(grid, Mapping):
        if not grid:
            raise ValueError(
                "grid: the table of parameters is empty; give {name: [values]} or a list of points"
            )
        names = list(grid)
        for name in names:
            if not isinstance(name, str):
                raise ValueError(f"grid: parameter names must be strings, got {name!r}")
        lists = [_values(n, grid[n]) for n in names]
        raw = [dict(zip(names, combo, strict=False)) for combo in itertools.product(*lists)]
    elif isinstance(grid, (list, tuple)):
        if not grid:
            raise ValueError(
                "grid: the list of points is empty; give {name: [values]} or a list of points"
            )
        raw = []
        for i, point in enumerate(grid):
            if not isinstance(point, Mapping):
                raise ValueError(
                    f"grid: point {i} must be a dict of parameter values, got {type(point).__name__}"
                )
            raw.append(dict(point))
    else:
        raise ValueError(
            "grid must be a dict {name: [values]} or a list of point dicts, "
            f"got {type(grid).__name__}"
        )
    points = []
    seen: dict[str, int] = {}
    for i, point in enumerate(raw):
        p = (check or check_params)(point)
        key = json.dumps(p, sort_keys=True)
        if key in seen:
            raise ValueError(f"grid: point {i} repeats point {seen[key]} ({p})")
        seen[key] = i
        points.append(p)
    return points
