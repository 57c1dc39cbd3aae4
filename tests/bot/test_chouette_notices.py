"""Private notices at the chouette, as for matches (bot/core/match/attention.py): the board mentions
whoever it waits for, and notifies them privately, in their own language, only when they have
not acted at the table for ten minutes."""

from __future__ import annotations

from datetime import timedelta

from bot.core.match.attention import AWAY_AFTER
from bot.core.model import Message
from gammon.flow import Phase
from tests.bot.chouette_play_helpers import current, open_and_start, whose_turn
from tests.bot.scripted import Room


def _board(answer: list[Message]) -> Message:
    boards = [message for message in answer if message.text.startswith("Chouette, game")]
    assert boards, answer
    return boards[-1]


async def _play_on(room: Room, name: str) -> list[Message]:
    """``name`` rolls and, when the roll can be played, plays: what the bot answered."""
    answer = await room.command(name, "/roll")
    game = (await current(room)).game
    assert game is not None
    if game.board.phase is Phase.MOVING:
        answer += await room.command(name, f"/move {game.board.legal_plays()[0]}")
    return answer


async def test_a_player_away_from_the_table_is_notified_in_their_language(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    first = await whose_turn(room, people)
    await room.command(first, "/language de")
    game = (await current(room)).game
    assert game is not None
    # Just after the game started, nobody has been away: a mention, no notice.
    moved = await room.command(first, f"/move {game.board.legal_plays()[0]}")
    second = await whose_turn(room, people)
    assert (_board(moved).mention, _board(moved).notify) == ((second,), ())
    # The other side plays on eleven minutes later: the first player is away by now.
    later = room.core.clock() + AWAY_AFTER + timedelta(minutes=1)
    room.core.clock = lambda: later
    board = _board(await _play_on(room, second))
    assert (board.mention, board.notify) == ((first,), (first,))
    loaded = await current(room)
    notice = board.notice_for(first)
    assert notice.startswith(f"Die Chouette #c{loaded.info.id} wartet auf dich.")
    assert board.text.startswith("Chouette, game 1")  # the chat reads English
    # The first player answers at once: the second, who just played, gets no notice.
    board = _board(await _play_on(room, first))
    assert (board.mention, board.notify) == ((second,), ())
