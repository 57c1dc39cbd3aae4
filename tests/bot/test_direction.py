"""Arabic messages: each line starts right to left and notation keeps its own order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.text.direction import directed_text, isolate_left_to_right
from bot.core.text.i18n import speech
from tests.bot.scripted import Room

MARKS = {"\u200f", "\u2066", "\u2069"}


def unmarked(text: str) -> str:
    return "".join(char for char in text if char not in MARKS)


@given(st.text(alphabet=st.characters(blacklist_characters=sorted(MARKS)), max_size=200))
def test_marks_only_add_direction_and_never_change_the_text(text: str) -> None:
    assert unmarked(directed_text(text, "ar")) == text
    assert directed_text(text, "en") == text
    assert directed_text(text, "ru") == text
    assert directed_text(directed_text(text, "ar"), "ar") == directed_text(text, "ar")


def test_a_play_is_one_isolated_run_and_the_full_stop_stays_arabic() -> None:
    line = isolate_left_to_right("لعب علي 13/10* 6/5.")
    assert line.startswith("\u200f")
    assert "\u206613/10* 6/5\u2069." in line


def test_every_line_of_an_arabic_message_starts_right_to_left() -> None:
    text = directed_text("سارة\nPips: 167 · 160\n/move 8/5 6/5", "ar")
    assert all(line.startswith("\u200f") for line in text.split("\n"))
    assert "\u2066/move 8/5 6/5\u2069" in text


async def test_an_arabic_chat_gets_its_board_laid_out_right_to_left(room: Room) -> None:
    await room.command("anna", "/defaults language ar", admin=True)
    await room.command("anna", "/challenge @bob 3")
    started = await room.press("bob", speech("ar")("Accept"))  # the button reads Arabic
    board = started[-1]
    assert board.locale == "ar"
    assert board.board is not None
    lines = board.text.split("\n")
    assert all(line.startswith("\u200f") for line in lines)
    assert "\u2066Position ID: " in board.text  # the IDs read left to right inside
    assert any("\u0600" <= char <= "\u06ff" for char in board.text)
