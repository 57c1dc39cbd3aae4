"""How a long-running bot process treats the garbage collector.

The full collections of CPython's collector look at every tracked object: with 200 matches in
play (their states cached, about 100,000 objects) one such pass paused the event loop for far
too long. So objects that have lived long are frozen, and the collector's passes look only at
what is newer: first everything made while starting, then whatever survives a pass of the
middle generation (generation 1) or a full one. Freezing only after full passes still left long
full passes over what had come since the last one; freezing after the middle generation's
passes leaves the full passes almost nothing to look at (docs/benchmarks.md has the figures).
Frozen objects are still freed by reference counting; only cycles among them that have since
become garbage wait for :func:`reclaim_frozen_garbage`, which the host runs about once an hour
when the bot is idle.
"""

from __future__ import annotations

import gc
from typing import Any

_installed = False


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """After a pass over generation 1 or 2: freeze what survived it."""
    if phase == "stop" and info.get("generation", 0) >= 1:
        gc.freeze()


def freeze_startup_objects() -> None:
    """Keep what was created while starting (modules, tables, compiled patterns) out of the
    collector's passes, and from now on freeze whatever survives a pass over generation 1
    or 2."""
    global _installed
    gc.collect()
    gc.freeze()
    if not _installed:
        gc.callbacks.append(_freeze_survivors)
        _installed = True


def reclaim_frozen_garbage() -> int:
    """Collect cycles that became garbage after they were frozen (one full pass over the
    whole heap: a long pause, so only when nothing waits). Answers how many
    objects were freed."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed
