"""Log lines about what a stranger can cause by the thousand, without a line for each."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class LogTally:
    """A warning for the first such event at once, then at most one every ``every`` seconds,
    saying how many came since the line before (refused connections, bad requests)."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._every = every
        self._clock = clock
        self._unsaid = 0
        self._quiet_until: float | None = None

    def note(self, what: str) -> None:
        """One more event; ``what`` describes it (the latest one is the one logged)."""
        self._unsaid += 1
        now = self._clock()
        if self._quiet_until is not None and now < self._quiet_until:
            return
        if self._unsaid == 1:
            self._logger.warning("%s", what)
        else:
            self._logger.warning("%s (%d such since the last line)", what, self._unsaid)
        self._unsaid = 0
        self._quiet_until = now + self._every
