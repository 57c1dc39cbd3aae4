"""Warnings about what strangers cause by the thousand: the first at once, then at most one a
minute, saying how many there were."""

from __future__ import annotations

import logging

import pytest

from bot.web.log_tally import LogTally


def test_the_first_is_said_at_once_the_rest_once_a_minute_with_their_number(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    tally = LogTally(logging.getLogger("tally-test"), every=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="tally-test"):
        tally.note("refused 1")
        for second in range(1, 60):
            now[0] = float(second)
            tally.note(f"refused at {second}")
        now[0] = 60.0
        tally.note("refused at 60")
        now[0] = 200.0
        tally.note("refused at 200")
    assert [record.getMessage() for record in caplog.records] == [
        "refused 1",
        "refused at 60 (60 such since the last line)",
        "refused at 200",
    ]
