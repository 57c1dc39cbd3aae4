"""What was just played, in sentences for the first line of a board's caption: "Bob rolled
6-4 and played 24/18 13/9.", "Anna doubles to 2.", the opening roll, a game's result. A
match played over days is read back in the chat, so every board says what led to it.

A board that calls a player to act is a new message; while that player goes on (a roll, a
play after which the opponent could not move) each board after it takes its place, in the
chat platforms by an edit. So a board says everything since it was that player's turn to be
called: the writes since the last one the player did not make. What an answer has just
recorded is told from its steps (their states know the cube's value and which plays were
made automatically); what came before it in that stretch, from the match's log.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.text import texts
from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from gammon import Position
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    CannotMove,
    ClaimWin,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimeOut,
    WinKind,
)
from gammon.flow import GameResult, MatchState, Phase, Step

# A caption's first line at most (Telegram shows 1024 characters under a picture, and the
# board's own lines and the mentions need room too).
LINE_LIMIT = 600
# What always ends a game.
_GAME_ENDS = (Drop, AcceptResignation, ClaimWin, TimeOut)


def line(sentences: Sequence[str], limit: int = LINE_LIMIT) -> str:
    """The sentences as the one line a caption starts with; when they are more than
    ``limit`` characters (a player closed out for many turns), the latest of them.

    >>> line(["Anna rolled 6-6 and cannot move.", "Bob rolled 2-1 and played 6/5 6/4."], 40)
    '… Bob rolled 2-1 and played 6/5 6/4.'
    """
    said = [sentence for sentence in sentences if sentence]
    text = " ".join(said)
    while len(text) > limit and len(said) > 1:
        said.pop(0)
        text = "… " + " ".join(said)
    return text


# --- the sentences ----------------------------------------------------------------------


def played(_: Speech, name: str, dice: Sequence[int] | None, play: str, automatic: bool) -> str:
    roll = roll_text(_.locale, dice) if dice else ""
    if automatic:
        text = _("{name} rolled {roll} and played {play} (the only legal play).")
    else:
        text = _("{name} rolled {roll} and played {play}.")
    return text.format(name=name, roll=roll, play=play)


def cannot_move(_: Speech, name: str, dice: Sequence[int] | None) -> str:
    roll = roll_text(_.locale, dice) if dice else ""
    return _("{name} rolled {dice} and cannot move.").format(name=name, dice=roll)


def opening(_: Speech, state: MatchState, dice: tuple[int, int], names: Sequence[str]) -> list[str]:
    """The opening roll (the lot, in long nardy) that ``state`` follows."""
    first, second = dice
    if first == second:
        text = _("Opening roll: {a} {x}, {b} {y}. A tie: rolling again.")
    elif state.variant.value == "long_nardy":
        text = _("The lot: {a} {x}, {b} {y}. {winner} takes White and starts.")
    else:
        text = _("Opening roll: {a} {x}, {b} {y}. {winner} starts with {high}-{low}.")
    sentences = [
        text.format(
            a=names[0],
            x=first,
            b=names[1],
            y=second,
            winner=names[0 if first > second else 1],
            high=max(dice),
            low=min(dice),
        )
    ]
    if state.crawford_game and first != second:
        sentences.append(_("This is the Crawford game: nobody may double."))
    return sentences


def _cube_action(_: Speech, action: Action, name: str, value: int) -> str:
    """A double (``value``: what it offers), a take or a beaver (``value``: the cube now)."""
    if isinstance(action, Double):
        return _("{name} doubles to {value}.").format(name=name, value=value)
    if isinstance(action, Take):
        return _("{name} takes. The cube is at {value}.").format(name=name, value=value)
    return _("{name} beavers. The cube is at {value}.").format(name=name, value=value)


def _answer(_: Speech, action: Action, name: str) -> str:
    """An offer to resign or its rejection (an accepted one is told by the game's result)."""
    if isinstance(action, Resign):
        return _("{name} offers to resign {level}.").format(
            name=name, level=texts.resignation_name(_, WinKind(action.level))
        )
    return _("{name} rejects the resignation. Play on!").format(name=name)


# --- from the steps just recorded -------------------------------------------------------


def step_sentences(
    _: Speech,
    step: Step,
    names: Sequence[str],
    automatic: bool,
    bots: Sequence[bool],
    last: bool,
) -> list[str]:
    """What one step did. ``automatic``: nobody chose its first action (a forced play made
    for a person is said to be one; the bot's plays are its own); ``last``: no step follows,
    so an offer to resign that still waits is left to the board's headline, which asks it."""
    sentences: list[str] = []
    dice = step.before.dice
    after = step.after
    for action in step.recorded:
        if isinstance(action, OpeningRoll):
            sentences += opening(_, after, action.dice, names)
        elif isinstance(action, Roll):
            dice = action.dice
        elif isinstance(action, Move):
            forced = automatic and not bots[action.player]
            sentences.append(played(_, names[action.player], dice, action.play, forced))
        elif isinstance(action, CannotMove):
            sentences.append(cannot_move(_, names[action.player], dice))
        elif isinstance(action, Double):
            sentences.append(_cube_action(_, action, names[action.player], after.cube_value * 2))
        elif isinstance(action, Take | Beaver):
            sentences.append(_cube_action(_, action, names[action.player], after.cube_value))
        elif isinstance(action, RejectResignation) or (
            isinstance(action, Resign) and not (last and after.phase is Phase.RESIGNING)
        ):
            sentences.append(_answer(_, action, names[action.player]))
    for result in after.games[len(step.before.games) :]:
        sentences.append(texts.game_result_text(_, result, names, after.variant))
    return sentences


# --- from the log ------------------------------------------------------------------------


def told_from(makers: Sequence[int | None], actor: int) -> int | None:
    """Where a board for ``actor`` starts telling: at the first action of the last write that
    ``actor`` did not make (``makers``: for each action, the seat of whoever made the write
    it began, None for an action that began no one's write). Every later write was the
    actor's own, each of them answered with a board for the actor again, which took the
    place of the one before: together they are what that player's board has to say. None
    when no such write is among ``makers``."""
    for index in range(len(makers) - 1, -1, -1):
        maker = makers[index]
        if maker is not None and maker != actor:
            return index
    return None


def log_sentences(
    _: Speech,
    state: MatchState,
    window: Sequence[Action],
    automatic: Sequence[bool],
    dice: tuple[int, int] | None,
    names: Sequence[str],
    bots: Sequence[bool],
) -> list[str]:
    """What the actions of ``window`` did, the last of them leading to ``state``.
    ``automatic``: for each, whether it followed by itself (a person's play made for them
    is said to be the only one); ``dice``: the roll before the window, for its first play."""
    endings = _game_endings(window, state)
    values = _cube_values(window, state, endings)
    sentences: list[str] = []
    for index, action in enumerate(window):
        if isinstance(action, OpeningRoll):
            dice = action.dice
            sentences += opening(_, state, action.dice, names)
        elif isinstance(action, Roll):
            dice = action.dice
        elif isinstance(action, Move):
            forced = automatic[index] and not bots[action.player]
            sentences.append(played(_, names[action.player], dice, action.play, forced))
        elif isinstance(action, CannotMove):
            sentences.append(cannot_move(_, names[action.player], dice))
        elif isinstance(action, Double | Take | Beaver):
            sentences.append(_cube_action(_, action, names[action.player], values[index]))
        elif isinstance(action, RejectResignation) or (
            isinstance(action, Resign) and not (index == len(window) - 1 and state.resignation)
        ):
            sentences.append(_answer(_, action, names[action.player]))
        if index in endings:
            sentences.append(texts.game_result_text(_, endings[index], names, state.variant))
    return sentences


def _cube_values(
    window: Sequence[Action], state: MatchState, endings: dict[int, GameResult]
) -> dict[int, int]:
    """The value each double offers and each take or beaver leaves, counted back from the
    cube of ``state`` (and, before a game's end in the window, from that game's cube)."""
    values: dict[int, int] = {}
    cube = state.cube_value
    for index in range(len(window) - 1, -1, -1):
        action = window[index]
        if index in endings:
            cube = endings[index].cube_value
        if isinstance(action, Double):
            values[index] = cube * 2
        elif isinstance(action, Take | Beaver):
            values[index] = cube
            cube //= 2 if isinstance(action, Take) else 4
    return values


def _game_endings(window: Sequence[Action], state: MatchState) -> dict[int, GameResult]:
    """The games that ended in the window, by the index of their last action. A game ends
    right before an opening roll that follows something else, with a dropped double, an
    accepted resignation or a claim, and, when ``state`` is a new game's start with no opening
    roll (long nardy's later games), with the window's last action."""
    ends: list[int] = []
    for index, action in enumerate(window):
        following = window[index + 1] if index + 1 < len(window) else None
        if isinstance(action, OpeningRoll):
            continue
        if isinstance(action, _GAME_ENDS) or isinstance(following, OpeningRoll):
            ends.append(index)
    last = len(window) - 1
    fresh = bool(state.games) and state.position == Position.start(state.variant)
    if fresh and not ends and window and not isinstance(window[last], OpeningRoll):
        ends.append(last)
    results = state.games[len(state.games) - len(ends) :] if ends else ()
    if len(results) != len(ends):
        return {}
    return dict(zip(ends, results, strict=True))
