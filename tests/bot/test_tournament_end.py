"""A tournament's end is told in the chat, with its results and winner, by what decided its
last match: the match's end, or a withdrawal's walkover (once, the end went unsaid: the chat
learnt the winner only by asking)."""

from __future__ import annotations

from bot.core.model import Message
from tests.bot.scripted import Room, play_to_the_end


def _texts(answer: list[Message]) -> str:
    return "\n".join(message.text for message in answer)


async def _two_players(room: Room) -> None:
    await room.command("ann", '/tournament new single 1 "Duel"', admin=True)
    await room.command("bob", "/tournament join")
    await room.command("ann", "/tournament start")


async def test_the_last_matchs_end_tells_the_tournaments_end(room: Room) -> None:
    await _two_players(room)
    await room.press("bob", "Start")
    await play_to_the_end(room, ("ann", "bob"), seed=3)
    (end,) = [m.text for m in room.log if m.text.startswith("Duel is over.\n")]
    lines = end.split("\n")
    assert lines[1] == "Duel: single elimination"
    assert lines[2].startswith("the final: ")
    winner = lines[2].removeprefix("the final: ").split(" beat ")[0]
    assert winner in ("Ann", "Bob")
    assert lines[3:] == [f"Winner: {winner}"]


async def test_a_withdrawal_that_decides_the_last_match_tells_the_end(room: Room) -> None:
    await _two_players(room)
    said = _texts(await room.command("bob", "/tournament withdraw"))
    assert "Bob has withdrawn from Duel" in said
    assert (
        "Duel is over.\nDuel: single elimination\nthe final: Ann by walkover\nWinner: Ann" in said
    )
