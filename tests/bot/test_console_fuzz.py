"""Any input line is safe for the console chat: undecodable bytes, NULs, lone surrogates, very
long lines, many mentions, fake buttons and chat prefixes are answered or refused, never fatal,
and the chat still works afterwards."""

from __future__ import annotations

import asyncio
import io
import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console_app.chat import ConsoleChat
from bot.core.service import Core
from storage import Database
from tests.seeds import fixed_seeds

COMMANDS = st.sampled_from(
    [
        *("/challenge", "/help", "/move", "/board", "/roll", "/double", "/resign", "/settings"),
        *("/defaults", "/language", "/seed", "/claim", "/verify", "/matches", "/rules", "/"),
        *("[Accept]", "[Decline]", "[Cancel]", "[Take]", "[Drop]", "[Roll]", "[", "[]", "//"),
    ]
)
WORDS = st.one_of(
    COMMANDS,
    st.sampled_from(
        [
            *("#main ", "#@alice ", "#@bob ", "#", "@", "@alice", "@bob", "@@", ":", " ", "]"),
            *("8/5", "6/5", "bar/20", "3", "0", "-1", "99999999999999999999", "nardy", "time=1h"),
            *("\x00", "\x1b[2J", "\t", "\r", "\n", "\u200b", "\u202e", "\ufffd", "\udcff"),
        ]
    ),
)
LONG = st.builds(
    lambda word, times: word * times,
    st.sampled_from(["x", "@a ", "@", "[x]", "#", ":", "\x00", "é", "\U0001f600"]),
    st.integers(0, 100_000),
)
PIECES = st.one_of(
    WORDS,
    st.text(max_size=20),
    st.binary(max_size=20).map(lambda data: data.decode("utf-8", "surrogateescape")),
    LONG,
)
NAMES = st.one_of(
    st.sampled_from(["alice", "bob", "Bob", "x" * 32, "x" * 33, "\x00", "al\udcffice", "日本"]),
    st.text(min_size=1, max_size=40),
)
SPOKEN = st.builds(
    "{}{}: {} {}".format,
    st.sampled_from(["", "", "#main ", "#@alice ", "#side ", "#" + "c" * 65 + " "]),
    NAMES,
    COMMANDS,
    st.lists(PIECES, max_size=6).map(" ".join),
)
LINES = st.one_of(
    SPOKEN,
    SPOKEN,
    st.lists(PIECES, max_size=10).map("".join),
    # Bytes as the console decodes them, and as stdin decoded them with surrogateescape.
    st.binary(max_size=300).map(lambda data: data.decode("utf-8", "replace")),
    st.binary(max_size=300).map(lambda data: data.decode("utf-8", "surrogateescape")),
)


def test_no_input_line_breaks_the_console(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    output = io.StringIO()
    with asyncio.Runner() as runner:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}")
        runner.run(database.migrate())
        chat = ConsoleChat(Core(database, render_images=False, server_seeds=fixed_seeds()), output)

        @settings(
            max_examples=150,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(lines=st.lists(LINES, min_size=1, max_size=3))
        def any_lines(lines: list[str]) -> None:
            for line in lines:
                output.seek(0)
                output.truncate()
                caplog.clear()
                runner.run(chat.line(line))
                printed = output.getvalue()
                assert "Traceback" not in printed
                assert "something went wrong" not in printed
                printed.encode("utf-8")  # no lone surrogate reaches the output
                assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []

        try:
            any_lines()
            output.seek(0)
            output.truncate()
            runner.run(chat.line("#after-the-fuzz alice: /challenge @bob 3"))
            assert "[Accept]" in output.getvalue()
            runner.run(chat.line("#after-the-fuzz bob: [Accept]"))
            assert "Position ID: " in output.getvalue()
        finally:
            runner.run(database.close())
