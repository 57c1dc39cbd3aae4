"""Matching typed notation against the legal plays, and saying why a play is refused.

The text is replayed on the board with the rolled dice one die step at a time, every way it can
be (``24/13`` may take either die first, ``3/off`` may use a larger die, and the steps of
different moves may interleave). Each way ends in a mover layout plus the blots it hit; a way
that leaves dice unused is completed with every continuation. The text means the legal plays
reached so: exactly one is accepted, several are ambiguous, none is illegal, and the first rule
that stopped it is named. A backgammon text that moves every die, every way it can be played,
to one layout needs no list of legal plays (see :func:`_whole_play`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from gammon import nardy_movegen
from gammon.errors import AmbiguousPlayError, IllegalPlayError, InvalidNotationError
from gammon.movegen import checked_dice, legal_plays, step_end, with_hits
from gammon.notation import Hop, NotationSyntaxError, TypedPlay, format_point, read_notation
from gammon.play import Play
from gammon.position import BAR, OFF, Position, Variant

# A board while replaying: (mover counts, hit mask, dice still to play, highest die first).
_State = tuple[tuple[int, ...], int, tuple[int, ...]]
# One checker step as a play keeps it: (start, end, die, whether it hit).
_RawStep = tuple[int, int, int, bool]
# A resulting layout: (mover counts, opponent counts).
_Layout = tuple[tuple[int, ...], tuple[int, ...]]
# One checker step on a board: (board, start, die) -> end point, or the reason it is illegal.
StepRule = Callable[[tuple[int, ...], int, int], int | str]

_STEP_REASONS = {
    "point_closed": "that point is held by your opponent",
    "head_rule": (
        "only one checker may leave the head per turn (two on your first turn with 6-6, 4-4 or 3-3)"
    ),
    "six_block": "that builds a block of six points with no opposing checker past it",
    "not_all_home": "you cannot bear off until all your checkers are in your home board",
    "higher_checker": "you can bear off with a larger number only from your highest point",
}


def stepper(position: Position, roll: tuple[int, int]) -> StepRule:
    """The single-step rule of the position's variant."""
    facing = position.facing()
    if position.variant is Variant.BACKGAMMON:
        return lambda board, start, die: step_end(board, facing, start, die)
    limit = nardy_movegen.head_limit(position, *roll)
    head_start = position.player[nardy_movegen.HEAD]
    lowest = nardy_movegen.lowest_opponent_point(position.opponent)

    def nardy_step(board: tuple[int, ...], start: int, die: int) -> int | str:
        head_left = limit - (head_start - board[nardy_movegen.HEAD])
        return nardy_movegen.step_end(board, facing, start, die, head_left, lowest)

    return nardy_step


def match_play(text: str, position: Position, dice: Sequence[int]) -> Play:
    """The legal play meant by ``text``; raises one of the three notation errors."""
    roll = checked_dice(dice)
    if not isinstance(text, str):
        raise TypeError(f"play text must be str, not {type(text).__name__}")
    try:
        typed = read_notation(text, head_alias=position.variant is Variant.LONG_NARDY)
    except NotationSyntaxError as error:
        raise InvalidNotationError(
            f"cannot read the play: {error}",
            text=text[:60],
            position=position,
            dice=roll,
            reason="syntax",
        ) from None
    whole = _whole_play(position, roll, typed)
    if whole is not None:
        return whole
    by_result = _results_of(position, roll)
    plays = tuple(by_result.values())

    def illegal(message: str, reason: str) -> IllegalPlayError:
        closest = _closest(position, typed.hops, plays)
        return IllegalPlayError(
            message, text=text, position=position, dice=roll, reason=reason, alternatives=closest
        )

    if typed.dice is not None and tuple(sorted(typed.dice, reverse=True)) != roll:
        raise illegal(f"the play is written for {typed.dice[0]}-{typed.dice[1]}", "dice_mismatch")
    if not plays:
        raise illegal("no legal play exists with this roll: the turn is lost", "no_play")
    for hop in typed.hops:
        if hop.end >= hop.start:
            raise illegal(
                f"{format_point(hop.start)}/{format_point(hop.end)} goes backwards: "
                "checkers move towards your home board",
                "backwards",
            )

    if len(typed.hops) > len(_dice_to_play(roll)):
        raise illegal("that is more moves than the dice allow", "too_many_moves")
    facing = position.facing()
    step = stepper(position, roll)
    start: _State = (position.player, 0, _dice_to_play(roll))
    matches = _matches(start, typed.hops, step, position, by_result)
    if len(matches) == 1:
        return matches[0]
    if matches:
        candidates = sorted(matches, key=str)
        raise AmbiguousPlayError(text=text, position=position, dice=roll, candidates=candidates)
    merged = _bear_offs_merged(typed.hops, facing)
    if merged != typed.hops:
        found = _matches(start, merged, step, position, by_result)
        if len(found) == 1:
            return found[0]
    if not _replay(start, typed.hops, facing, step)[0]:
        raise illegal(*_why_replay_fails(start, typed.hops, facing, step))
    raise illegal(*_why_incomplete(plays, roll))


def _matches(
    start: _State,
    hops: Sequence[Hop],
    step: StepRule,
    position: Position,
    by_result: dict[_Layout, Play],
) -> list[Play]:
    """The legal plays the hops reach, played one die step at a time and completed with
    the dice they leave."""
    facing = position.facing()
    reached, _reasons = _replay(start, hops, facing, step)
    matches: dict[int, Play] = {}
    for state in reached:
        for board, mask in _completions(state, facing, step):
            play = by_result.get((board, with_hits(position.opponent, mask)))
            if play is not None:
                matches[id(play)] = play
    return list(matches.values())


def _bear_offs_merged(hops: Sequence[Hop], facing: Sequence[int]) -> tuple[Hop, ...]:
    """The hops with each ``a/b b/off`` through an empty point ``b`` read as ``a/off``.

    GNU Backgammon writes a checker borne off with both dice as the two steps its reader
    split it into, whichever die it tried first: ``6/1 1/0`` for 6/off with 5-2, although
    with a checker on 3 only 6/4 (the 2) then 4/off (the 5) is legal. Through a point that
    holds no opposing checker the two steps move the same checker as ``6/off`` does, so they
    mean that play.
    """
    merged = list(hops)
    for index, first in enumerate(merged):
        if first.end == OFF or facing[first.end]:
            continue
        for other, second in enumerate(merged):
            if other != index and second.start == first.end and second.end == OFF:
                merged[index] = Hop(first.start, OFF)
                del merged[other]
                return _bear_offs_merged(merged, facing)
    return tuple(merged)


def _whole_play(position: Position, roll: tuple[int, int], typed: TypedPlay) -> Play | None:
    """The backgammon play ``typed`` means when it moves every die, found without listing the
    legal plays; ``None`` when it takes the search below (an error, a partial or ambiguous
    text, long nardy).

    A play that moves every die by legal single steps is legal: the rules ask for as many
    dice as can be played, and for the larger die only when just one can be. So when every
    way the text can be played on the board moves every die and all of them reach the same
    layout, that layout is the play the search below would find, and the only one (unless
    two checkers land where a blot was hit: the text names the first as the hitter, and which
    one is first is the listed play's order, so the search settles it). Replaying
    a match record (every finished game, its animation, its files) reads each play so, in
    about a sixth of the time of listing the legal plays and matching against them (the
    moves of random games, caches cold).
    """
    if position.variant is not Variant.BACKGAMMON:
        return None
    if typed.dice is not None and tuple(sorted(typed.dice, reverse=True)) != roll:
        return None
    dice = _dice_to_play(roll)
    hops = typed.hops
    if len(hops) > len(dice) or any(hop.end >= hop.start for hop in hops):
        return None
    facing = position.facing()
    reached, _reasons = _replay((position.player, 0, dice), hops, facing, stepper(position, roll))
    if len(reached) != 1:
        return None
    (((board, mask, left), steps),) = reached.items()
    if left:
        return None
    ends = [end for _start, end, _die, _hit in steps]
    if any(hit and ends.count(end) > 1 for _start, end, _die, hit in steps):
        return None  # which of the checkers landing there hit is the listed play's to say
    result = Position._trusted(with_hits(position.opponent, mask), board, position.variant)
    return Play(position, roll, steps, result)


@lru_cache(maxsize=128)
def _results_of(position: Position, roll: tuple[int, int]) -> dict[_Layout, Play]:
    """The legal plays of a roll keyed by resulting layout (mover, opponent)."""
    return {
        (play.result.opponent, play.result.player): play for play in legal_plays(position, roll)
    }


def _dice_to_play(roll: tuple[int, int]) -> tuple[int, ...]:
    return roll * 2 if roll[0] == roll[1] else roll


def _replay(
    start: _State, hops: Sequence[Hop], facing: Sequence[int], step: StepRule
) -> tuple[dict[_State, tuple[_RawStep, ...]], list[str]]:
    """Every state after playing all ``hops``, one die step at a time, in any interleaving,
    each with the steps of one way there.

    Interleaving matters: with two checkers on the bar and 2-2, ``bar/21(2)`` enters both
    before either moves on. Also returns the reasons single steps were refused.
    """
    reached: dict[_State, tuple[_RawStep, ...]] = {}
    reasons: list[str] = []
    seen: set[tuple[_State, tuple[int, ...]]] = set()
    targets = [hop.end for hop in hops]

    def advance(state: _State, at: tuple[int, ...], steps: tuple[_RawStep, ...]) -> None:
        if (state, at) in seen:
            return
        seen.add((state, at))
        if all(point < 0 for point in at):
            reached.setdefault(state, steps)
            return
        board, mask, remaining = state
        tried: set[tuple[int, int]] = set()
        for index, point in enumerate(at):
            target = targets[index]
            if point < 0 or (point, target) in tried:
                continue
            tried.add((point, target))
            for die_index, die in enumerate(remaining):
                if die in remaining[:die_index]:
                    continue
                if target != OFF and point - die < target:
                    continue  # overshoots this move's destination
                end = step(board, point, die)
                if isinstance(end, str):
                    reasons.append(end)
                    continue
                left = remaining[:die_index] + remaining[die_index + 1 :]
                next_at = (*at[:index], -1 if end == target else end, *at[index + 1 :])
                moved, hits = after_step(board, mask, facing, point, end)
                taken = (point, end, die, hits != mask)
                advance((moved, hits, left), next_at, (*steps, taken))

    advance(start, tuple(hop.start for hop in hops), ())
    return reached, reasons


def after_step(
    board: tuple[int, ...], mask: int, facing: Sequence[int], start: int, end: int
) -> tuple[tuple[int, ...], int]:
    """The board and hit mask after one checker steps from ``start`` to ``end``."""
    moved = list(board)
    moved[start] -= 1
    moved[end] += 1
    if end != OFF and facing[end] == 1 and not (mask >> end) & 1:
        mask |= 1 << end
    return tuple(moved), mask


def _why_replay_fails(
    start: _State, hops: Sequence[Hop], facing: Sequence[int], step: StepRule
) -> tuple[str, str]:
    """Name the first move (from the highest start down) that cannot be added, and why."""
    ordered = sorted(hops, key=lambda hop: -hop.start)
    states = {start}
    for count in range(1, len(ordered) + 1):
        reached, reasons = _replay(start, ordered[:count], facing, step)
        if not reached:
            fullest = max(states, key=lambda state: len(state[2]))
            return _why_hop_fails(fullest, ordered[count - 1], reasons)
        states = set(reached)
    raise AssertionError("every move replayed, so the play cannot have failed")


def _why_hop_fails(state: _State, hop: Hop, reasons: list[str]) -> tuple[str, str]:
    board, _mask, remaining = state
    move = f"{format_point(hop.start)}/{format_point(hop.end)}"
    if not remaining:
        return (f"{move} is one move more than your dice allow", "too_many_moves")
    if not board[hop.start]:
        where = "on the bar" if hop.start == BAR else f"on point {hop.start}"
        return (f"{move}: you have no checker {where}", "no_checker")
    if board[BAR] and hop.start != BAR:
        return (f"{move}: you must enter your checker from the bar first", "bar_first")
    if hop.end == OFF and sum(board[7:]) > (1 if hop.start >= 7 else 0):
        return (f"{move}: {_STEP_REASONS['not_all_home']}", "not_all_home")
    distance = hop.start - hop.end
    reachable = _sums(remaining)
    if hop.end != OFF and distance not in reachable:
        dice_text = " and ".join(str(die) for die in remaining)
        return (f"{move}: moving {distance} pips cannot be made with {dice_text}", "wrong_distance")
    if hop.end == OFF and not any(total >= distance for total in reachable):
        return (f"{move}: your dice are too small to bear off from {hop.start}", "wrong_distance")
    for reason in ("head_rule", "not_all_home", "higher_checker", "six_block", "point_closed"):
        if reason in reasons:
            return (f"{move}: {_STEP_REASONS[reason]}", reason)
    return (f"{move} cannot be played with these dice", "wrong_distance")


def _sums(dice: Sequence[int]) -> set[int]:
    totals = {0}
    for die in dice:
        totals |= {total + die for total in totals}
    totals.discard(0)
    return totals


def _completions(
    state: _State, facing: Sequence[int], step: StepRule
) -> set[tuple[tuple[int, ...], int]]:
    """The state itself and every layout reachable from it with the dice still unplayed."""
    board, mask, remaining = state
    out = {(board, mask)}
    for index, die in enumerate(remaining):
        if die in remaining[:index]:
            continue
        left = remaining[:index] + remaining[index + 1 :]
        for point in range(BAR, 0, -1):
            if not board[point]:
                continue
            end = step(board, point, die)
            if isinstance(end, str):
                continue
            out |= _completions((*after_step(board, mask, facing, point, end), left), facing, step)
    return out


def _why_incomplete(plays: Sequence[Play], roll: tuple[int, int]) -> tuple[str, str]:
    """The typed moves are playable but no legal play contains them: say which rule is missed.

    Every step of the replay was legal, so the text used fewer dice than the legal plays do, or
    (when only one die can be played) the smaller die where the larger one is required.
    """
    needed = len(plays[0]._raw_steps)
    if roll[0] == roll[1]:
        return (f"you must play {needed} of the four {roll[0]}s", "must_use_all")
    if needed == 2:
        return ("you must use both dice when both can be played", "must_use_both")
    return (f"only one die can be played, so it must be the larger ({roll[0]})", "must_play_larger")


def _closest(position: Position, hops: Sequence[Hop], plays: Sequence[Play]) -> list[Play]:
    """Up to three legal plays whose layout is nearest to what the text tried to do."""
    intent = list(position.player)
    for hop in hops:
        intent[hop.start] -= 1
        intent[hop.end] += 1

    def distance(play: Play) -> tuple[int, str]:
        layout = play.result.opponent
        return (sum(abs(a - b) for a, b in zip(intent, layout, strict=True)), str(play))

    return sorted(plays, key=distance)[:3]
