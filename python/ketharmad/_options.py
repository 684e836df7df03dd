"""What the package's option values share (:class:`ketharmad.RunOptions`,
:class:`ketharmad.BalanceSettings`): a frozen dataclass that a call takes as itself, as a
dict of its fields or as None (the defaults), and that says which fields differ from their
defaults."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

__all__ = ["OptionsValue"]

T = TypeVar("T", bound="OptionsValue")


class OptionsValue:
    """Mixin of a frozen dataclass of options. ``_arg`` is the keyword the value is passed
    as (``"run"``), ``_item`` what a field is called in an error (``"option"``)."""

    _arg: ClassVar[str] = "options"
    _item: ClassVar[str] = "field"

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The field names, in order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def of(cls: type[T], value: Any) -> T:
        """``value`` as a value of this class: None gives the defaults, a value of the class
        itself, a dict (or any mapping) of its fields a new one; an unknown key or anything
        else is a ValueError."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            names = cls.fields()
            unknown = [str(k) for k in value if k not in names]
            if unknown:
                s = "s" if len(unknown) > 1 else ""
                raise ValueError(
                    f"{cls._arg}: unknown {cls._item}{s} {', '.join(unknown)}; "
                    f"{cls.__name__} takes {', '.join(names)}"
                )
            return cls(**value)
        raise ValueError(
            f"{cls._arg} must be None, a ketharmad.{cls.__name__} or a dict of its fields, "
            f"got {type(value).__name__}"
        )

    @classmethod
    def folded(cls: type[T], call: str, value: Any, old: Mapping[str, Any]) -> T:
        """The one value of a call from ``value`` (as :meth:`of` takes it) and the deprecated
        keywords ``old`` that became its fields: a field given both ways is a ValueError."""
        opts = cls.of(value)
        if not old:
            return opts
        have = opts.changed() if isinstance(value, cls) else dict(value or {})
        twice = [k for k in old if k in have]
        if twice:
            raise ValueError(
                f"{call}(): {', '.join(twice)} given twice, as a keyword (deprecated) and in {cls._arg}=; "
                f"give {cls._arg}={cls.__name__}({', '.join(f'{k}=...' for k in twice)}) only"
            )
        return opts.replace(**old)

    def changed(self) -> dict[str, Any]:
        """The fields that differ from their defaults, by name (in field order)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
            if getattr(self, f.name) != f.default
        }

    def replace(self: T, **changes: Any) -> T:
        """A copy with ``changes`` (checked as any new value is)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.changed().items())})"
        )
