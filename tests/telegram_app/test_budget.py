"""The pace budget in a group: Telegram lets a bot send about 20 messages a minute into one
group, so each half-turn (a player's run of actions: a roll and a move, a double, a take) may
cost at most 2 calls into the group, exactly 1 when the roll was automatic, and at most 1.5 on
average over a whole match."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gammon.flow import Phase
from tests.fakes.telegram_bot_api import Call
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness
from tests.telegram_app.test_match import _match

PLAYERS = {0: ANNA, 1: BOB}
LIMITED = ("send", "edit")  # answerCallbackQuery is not counted against the group


@dataclass
class HalfTurn:
    """One player's turn (a roll, pressed or automatic, and its move), a double or a take:
    everything the bot sends in answer belongs to it, also the boards of an opponent who
    could not move."""

    player: int
    pressed_roll: bool = False
    moved: bool = False
    calls: list[str] = field(default_factory=list)


def _group_calls(calls: list[Call]) -> list[str]:
    return [
        call.method
        for call in calls
        if call.method.startswith(LIMITED) and call.params.get("chat_id") == GROUP
    ]


async def _play(telegram: Harness, seed: int) -> list[HalfTurn]:
    """A 3-point match with the cube: rolls pressed, a double now and then, always taken."""
    rng = random.Random(seed)
    turns: list[HalfTurn] = []

    def turn_of(player: int, phase: Phase) -> HalfTurn:
        """The half-turn an action belongs to: a new one when the player changes, when a
        roll or double starts a turn, and when a move follows a move (an automatic roll)."""
        last = turns[-1] if turns else None
        if (
            last is None
            or last.player != player
            or phase is Phase.ROLLING
            or (phase is Phase.MOVING and last.moved)
        ):
            turns.append(HalfTurn(player))
        return turns[-1]

    for _step in range(600):
        loaded = await _match(telegram)
        if loaded is None:
            return turns
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        player = PLAYERS[actor]  # the challenger, Anna, is player 0
        half = turn_of(actor, state.phase)
        if state.phase is Phase.ROLLING:
            doubling = state.double_refusal(actor) is None and rng.random() < 0.15
            label = "Double" if doubling else "Roll"
            half.pressed_roll |= label == "Roll"
            calls = await telegram.press_label(player, GROUP, label)
        elif state.phase is Phase.DOUBLED:
            calls = await telegram.press_label(player, GROUP, "Take")
        elif state.phase is Phase.MOVING:
            calls = await telegram.say(player, GROUP, f"/move {rng.choice(state.legal_plays())}")
            half.moved = True
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
        half.calls += _group_calls(calls)
    raise AssertionError("the match did not end")


async def test_a_whole_match_keeps_to_the_budget(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    await telegram.press_label(BOB, GROUP, "Accept")
    turns = await _play(telegram, seed=8)
    counts = [len(turn.calls) for turn in turns]
    assert len(turns) > 20
    assert max(counts) <= 2, [turn.calls for turn in turns if len(turn.calls) > 2]
    # A half-turn whose roll was automatic (its player pressed no [Roll]) and that ended with a
    # move costs exactly the one board that calls the other player.
    moved = [turn for turn in turns if not turn.pressed_roll and turn.calls[-1:] == ["sendPhoto"]]
    assert moved
    assert all(len(turn.calls) == 1 for turn in moved), [turn.calls for turn in moved]
    assert sum(counts) / len(counts) <= 1.5, sum(counts) / len(counts)


async def test_a_pressed_roll_edits_the_board_in_place(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    await telegram.press_label(BOB, GROUP, "Accept")
    loaded = await _match(telegram)
    assert loaded is not None
    play = loaded.state.legal_plays()[0]
    assert loaded.state.dice is not None
    high, low = max(loaded.state.dice), min(loaded.state.dice)
    await telegram.say(ANNA, GROUP, f"/move {play}")  # Anna opens
    board, roll = telegram.button(GROUP, "Roll")
    calls = await telegram.press(BOB, GROUP, board, roll)
    assert _group_calls(calls) == ["editMessageMedia"]  # the dice appear on the same board
    edited = telegram.api.messages[(GROUP, board)].data
    # The edited caption still says what Anna played: it is the chat's record of her turn.
    said = f"Anna rolled {high}-{low} and played {play}.\nBob to play "
    assert edited["caption"].startswith(said), edited["caption"]
    assert "reply_markup" not in edited
    # The old [Roll] button, pressed again from a client that still shows it, is refused.
    again = await telegram.press(BOB, GROUP, board, roll)
    assert _group_calls(again) == []
    answers = [call for call in again if call.method == "answerCallbackQuery"]
    assert [answer.params.get("text") for answer in answers] == ["That button is out of date."]
