"""A core double for an adapter's poster: it passes every call on to the real core and notes
it with the number of platform API calls made by then, so a test can tell whether the poster
called into the core while it was posting (between two of its own platform calls)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

_PLAIN = (str, int, float, bool, bytes, type(None))


@dataclass
class CoreCalls:
    """The core calls of a poster, each with the count of platform calls made before it."""

    count: Callable[[], int]  # the platform calls made so far
    calls: list[tuple[str, int]] = field(default_factory=list)

    def watched(self, target: object, name: str = "core") -> Any:
        return _Watched(target, name, self)

    def while_posting(self, posting: Sequence[int]) -> list[str]:
        """The core calls made after the first and before the last of the platform calls at
        the indexes ``posting``."""
        if not posting:
            return []
        first, last = min(posting), max(posting)
        return [name for name, made in self.calls if first < made <= last]


class _Watched:
    def __init__(self, target: object, name: str, log: CoreCalls) -> None:
        self._target, self._name, self._log = target, name, log

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(self._target, attribute)
        name = f"{self._name}.{attribute}"
        if isinstance(value, _PLAIN):
            return value
        if not callable(value):
            return _Watched(value, name, self._log)

        def noted(*arguments: Any, **keywords: Any) -> Any:
            self._log.calls.append((name, self._log.count()))
            return value(*arguments, **keywords)

        return noted
