"""Texts built from several pieces: rules summaries, board captions, refusals of plays.

Every sentence goes through gettext (``_``), so it is extracted into the catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from gammon import Variant
from gammon.actions import WinKind
from gammon.clock_setting import ClockSetting, clock_face
from gammon.errors import PlayError
from gammon.flow import ActionError, GameResult, MatchState, Phase
from gammon.match_rules import MatchRules


def rules_summary(
    _: Speech, rules: MatchRules, move_time_limit: int | None, *, article: bool = False
) -> str:
    """The rules in a few words: "5-point match of backgammon (no time limit)"; with
    ``article`` as a sentence's object: "an 11-point match of backgammon (…)"."""
    kind = _("long nardy") if rules.variant is Variant.LONG_NARDY else _("backgammon")
    if rules.length:
        text = _match_of(_, rules.length, article).format(length=rules.length, game=kind)
    elif rules.variant is Variant.LONG_NARDY:
        text = _("single games of {game}").format(game=kind)
    elif article:
        text = _("a money game of {game}").format(game=kind)
    else:
        text = _("money game of {game}").format(game=kind)
    extras = []
    if rules.variant is Variant.BACKGAMMON and not rules.uses_cube:
        extras.append(_("no cube"))
    if rules.jacoby:
        extras.append(_("Jacoby rule"))
    if rules.beavers:
        extras.append(_("beavers"))
    if rules.automatic_doubles:
        extras.append(_("automatic doubles"))
    if rules.clock is not None:
        extras.append(clock_text(_, rules.clock))
    if move_time_limit:
        extras.append(move_time_text(_, move_time_limit))
    elif rules.clock is None:
        extras.append(_("no time limit"))
    return text + " (" + ", ".join(extras) + ")"


def clock_text(_: Speech, clock: ClockSetting) -> str:
    """A match clock in a few words: "clock 8 s + 20 s per point", "clock 10 s + 5 min".

    >>> from gammon.clock import parse_clock
    >>> [clock_text(str, parse_clock(text)) for text in ("fast", "10s+5m", "5s+90s")]
    ['clock 8 s + 20 s per point', 'clock 10 s + 5 min', 'clock 5 s + 90 s']
    """
    reserve = _span(_, clock.reserve)
    if clock.per_point:
        return _("clock {delay} s + {reserve} per point").format(delay=clock.delay, reserve=reserve)
    return _("clock {delay} s + {reserve}").format(delay=clock.delay, reserve=reserve)


def _span(_: Speech, seconds: int) -> str:
    if seconds % 60:
        return _("{seconds} s").format(seconds=seconds)
    return _("{minutes} min").format(minutes=seconds // 60)


def clock_line(_: Speech, reserves: Sequence[int], names: Sequence[str]) -> str:
    """Both players' reserves (ms) on the board: "Clock: Anna 2:39 · Bob 0:07".

    >>> clock_line(str, (159_000, 7_400), ("Anna", "Bob"))
    'Clock: Anna 2:39 · Bob 0:07'
    """
    shown = [clock_face(left) for left in reserves]
    return _("Clock: {a} {x} · {b} {y}").format(a=names[0], x=shown[0], b=names[1], y=shown[1])


def _match_of(_: Speech, length: int, article: bool) -> str:
    if not article:
        return _.ngettext(
            "{length}-point match of {game}", "{length}-point match of {game}", length
        )
    if reads_with_an(length):
        return _.ngettext(
            "an {length}-point match of {game}", "an {length}-point match of {game}", length
        )
    return _.ngettext(
        "a {length}-point match of {game}", "a {length}-point match of {game}", length
    )


def reads_with_an(number: int) -> bool:
    """Whether English says "an" before ``number``: its spoken form starts with a vowel sound
    (eight, eleven, eighteen, eighty…, eleven thousand), not "one", "five", "a hundred".

    >>> [n for n in range(1, 100) if reads_with_an(n)]
    [8, 11, 18, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89]
    >>> reads_with_an(800), reads_with_an(110), reads_with_an(11_000), reads_with_an(18_500_000)
    (True, False, True, True)
    """
    digits = str(number)
    return digits.startswith("8") or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))


def move_time_text(_: Speech, seconds: int) -> str:
    """A move time limit in whole minutes: minutes under an hour, else hours (and minutes).

    >>> [move_time_text(str, seconds) for seconds in (60, 2700, 5400, 14400, 2592000)]
    ['1 min per move', '45 min per move', '1 h 30 min per move', '4 h per move', '720 h per move']
    """
    hours, minutes = divmod(max(1, (seconds + 30) // 60), 60)
    if not hours:
        return _("{minutes} min per move").format(minutes=minutes)
    if not minutes:
        return _("{hours} h per move").format(hours=hours)
    return _("{hours} h {minutes} min per move").format(hours=hours, minutes=minutes)


def score_line(_: Speech, state: MatchState, names: Sequence[str]) -> str:
    text = _("Score: {first} {a} – {b} {second}").format(
        first=names[0], a=state.score[0], b=state.score[1], second=names[1]
    )
    if state.crawford_game:
        text += " · " + _("Crawford game")
    return text


def ids_line(state: MatchState) -> str:
    """gnubg's IDs, so the position can be pasted into GNU Backgammon."""
    position = state.position.id()
    if state.variant is Variant.LONG_NARDY:
        return f"Position ID: {position}"
    return f"Position ID: {position} · Match ID: {state.match_id()}"


def game_result_text(_: Speech, result: GameResult, names: Sequence[str], variant: Variant) -> str:
    if result.winner is None:
        return _("Game {number} is a draw: the last roll bore off every checker.").format(
            number=result.number
        )
    winner = names[result.winner]
    if result.reason == "forfeit":
        return _("{name} wins the match: {other} ran out of time.").format(
            name=winner, other=names[1 - result.winner]
        )
    if result.reason == "time_out":
        return _("{name} wins the match: their time ran out with the match won for sure.").format(
            name=winner
        )
    return _.ngettext(
        "Game {number}: {name} wins {points} point ({how}, cube {cube}).",
        "Game {number}: {name} wins {points} points ({how}, cube {cube}).",
        result.points,
    ).format(
        number=result.number,
        name=winner,
        points=result.points,
        how=how_game_ended(_, result, variant),
        cube=result.cube_value,
    )


def how_game_ended(_: Speech, result: GameResult, variant: Variant) -> str:
    """How a won game ended, in a few words: "gammon", "resignation", ..."""
    if result.reason == "forfeit":
        return _("ran out of time")
    if result.reason == "time_out":
        return _("won for sure when the time ran out")
    if result.reason == "drop":
        return _("the double was dropped")
    if result.reason == "resign":
        return _("resignation")
    if variant is Variant.LONG_NARDY:
        return _("mars") if result.kind is WinKind.GAMMON else _("oin")
    # the same words as a resignation's: "backgammon" alone is the name of the game
    return resignation_name(_, result.kind or WinKind.SINGLE)


def action_refusal(_: Speech, error: ActionError) -> str:
    """A localised sentence for why an action is not allowed now."""
    if error.play_error is not None:
        return play_refusal(_, error.play_error)
    reasons = {
        "not_your_turn": _("It is not your turn."),
        "roll_first": _("Roll first."),
        "already_rolled": _("You have already rolled, so you can no longer double this turn."),
        "dice_rolled": _("You have rolled already: play your dice with /move."),
        "opening_roll_first": _("The game starts with the opening roll."),
        "double_pending": _("A double is waiting for an answer."),
        "resignation_pending": _("A resignation is waiting for an answer."),
        "not_cube_owner": _("Your opponent owns the cube."),
        "crawford_game": _("Nobody may double in the Crawford game."),
        "dead_cube": _("The cube is dead for you: winning this game already wins you the match."),
        "cube_disabled": _("This match is played without the doubling cube."),
        "no_double_pending": _("There is no double to answer."),
        "not_doubled_player": _("Only the doubled player answers a double."),
        "beaver_disabled": _("Beavers are not played in this match."),
        "no_resignation_pending": _("There is no resignation to answer."),
        "not_your_resignation": _("Your opponent answers your resignation."),
        "match_over": _("The match is over."),
        "must_move": _("A legal play exists, so you must move."),
        "not_claimable": _("Your opponent's time has not run out."),
        "not_waiting": _("Only the player who is waiting can claim the match."),
        "nobody_on_turn": _(
            "Nobody is on turn yet: the opening roll decides who starts, so there is nothing to "
            "claim."
        ),
    }
    return reasons.get(error.reason, _("That is not possible now."))


def play_refusal(_: Speech, error: PlayError) -> str:
    reasons = {
        "syntax": _("I cannot read that move. Write it like 13/10* 6/5 or bar/22 or 6/off."),
        "no_checker": _("You have no checker there."),
        "bar_first": _("You must enter your checker from the bar first."),
        "point_closed": _("That point is held by your opponent."),
        "not_all_home": _("You can bear off only when all your checkers are in your home board."),
        "higher_checker": _("With a larger number you bear off only from your highest point."),
        "wrong_distance": _("Your dice do not fit that move."),
        "backwards": _("Checkers only move forward, towards your home board."),
        "too_many_moves": _("That is more moves than your dice allow."),
        "dice_mismatch": _("That play is written for other dice."),
        "no_play": _("No legal play exists with this roll."),
        "must_use_both": _("You must use both dice when both can be played."),
        "must_use_all": _("You must play as many of the four numbers as possible."),
        "must_play_larger": _("Only one die can be played, so it must be the larger one."),
        "head_rule": _("Only one checker may leave the head per turn."),
        "six_block": _(
            "You may not build six points in a row before an opposing checker has passed them."
        ),
        "ambiguous": _("That could mean several plays."),
    }
    text = reasons.get(error.reason, _("That move is not legal."))
    options = getattr(error, "alternatives", ()) or getattr(error, "candidates", ())
    if options:
        listed = ", ".join(str(play) for play in list(options)[:5])
        text += " " + _("Legal plays include: {plays}").format(plays=listed)
    return text


def resignation_name(_: Speech, level: WinKind) -> str:
    return {
        WinKind.SINGLE: _("a single game"),
        WinKind.GAMMON: _("a gammon"),
        WinKind.BACKGAMMON: _("a backgammon"),
    }[level]


def level_name(_: Speech, level: str) -> str:
    """The bot's level as players read it."""
    return {
        "beginner": _("beginner"),
        "intermediate": _("intermediate"),
        "advanced": _("advanced"),
        "expert": _("expert"),
        "world_class": _("world class"),
    }.get(level, level)


def turn_headline(_: Speech, state: MatchState, names: Sequence[str], bot_to_act: bool) -> str:
    """The first line of a board: who must do what now."""
    actor = state.turn if state.turn is not None else state.player_on_roll
    if bot_to_act:
        return _("{name} is thinking…").format(name=names[actor])
    if state.phase is Phase.ROLLING:
        return _("{name} to roll.").format(name=names[actor])
    if state.phase is Phase.MOVING:
        assert state.dice is not None
        return _("{name} to play {roll}: /move …").format(
            name=names[actor], roll=roll_text(_.locale, state.dice)
        )
    if state.phase is Phase.DOUBLED:
        return _("{name}, take or drop the double to {value}?").format(
            name=names[actor], value=state.cube_value * 2
        )
    offer = state.resignation
    assert offer is not None
    return _("{name} offers to resign {level}. {other}, accept?").format(
        name=names[offer.player], level=resignation_name(_, offer.level), other=names[actor]
    )


def match_over(_: Speech, state: MatchState, names: Sequence[str]) -> str:
    winner = state.winner
    if winner is None:
        return _("The match has ended.")
    return _("Match over: {name} wins {a}–{b}.").format(
        name=names[winner], a=state.score[winner], b=state.score[1 - winner]
    )


def challenge_limit_refusal(_: Speech, scope: str, limit: int) -> str:
    """Why no new challenge (nor offer to the bot): the asker's open challenges (``scope``
    ``"user"``) or the chat's (``"chat"``) are ``limit`` already."""
    if scope == "user":
        return _.ngettext(
            "You already have {limit} open challenge. Wait for an answer, or cancel it "
            "with its [Cancel] button, before you offer another.",
            "You already have {limit} open challenges. Wait for an answer, or cancel one "
            "with its [Cancel] button, before you offer another.",
            limit,
        ).format(limit=limit)
    return _.ngettext(
        "This chat already has {limit} open challenge. Accept, decline or cancel it "
        "before a new one is offered here.",
        "This chat already has {limit} open challenges. Accept, decline or cancel some "
        "before a new one is offered here.",
        limit,
    ).format(limit=limit)
