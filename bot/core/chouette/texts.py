"""The chouette's sentences: refusals by their rules' code, what a cube shows, the scores,
a finished game's settlement. Every sentence goes through gettext (``_``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core.text import texts
from bot.core.text.i18n import Speech
from gammon.actions import WinKind
from gammon.chouette import (
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteError,
    ChouetteGame,
    CubeOwner,
    MemberAnswers,
    MemberCube,
    MemberDoubles,
    Side,
)
from gammon.flow import ActionError


def refusal(_: Speech, error: ChouetteError, action: ChouetteAction | None = None) -> str:
    """A sentence for why the rules refused a chouette action (``action``, when it was one:
    the same code has a reason of its own for each kind of action)."""
    if error.board_error is not None:
        return board_refusal(_, error.board_error)
    by_action = _action_refusal(_, str(error.reason), action)
    if by_action is not None:
        return by_action
    reasons = {
        "too_few_players": _("A chouette needs at least three players."),
        "table_full": _("The table is full: a chouette seats at most eight players."),
        "already_seated": _("You already sit at this chouette."),
        "not_seated": _("You do not sit at this chouette. Join with /chouette join."),
        "game_over": _("This game is over."),
        "not_in_team": _("You do not play in this game."),
        "not_your_turn": _("You can double only at the start of your own side's turn."),
        "opening_roll_first": _("The game starts with the opening roll."),
        "already_rolled": _("The dice are rolled: doubling waits for the next turn."),
        "already_doubled": _("The box has already doubled this turn."),
        "already_dropped": _("That cube is out of this game: its double was dropped."),
        "not_cube_owner": _("The other side owns that cube."),
        "no_double_pending": _("There is no double to answer on that cube."),
        "invalid_members": _("Name each member to double once."),
        "beaver_disabled": _("Beavers are not played at this chouette."),
    }
    return reasons.get(str(error.reason), _("That is not possible now."))


def _action_refusal(_: Speech, reason: str, action: ChouetteAction | None) -> str | None:
    """The reasons whose sentence depends on what was tried: acting out of role, acting after
    one's own cube left the game, a roll or a double while a double waits, answering when
    nobody doubled you."""
    by_box = isinstance(action, BoxDoubles | BoxAnswers)
    by_member = isinstance(action, MemberDoubles | MemberAnswers)
    if reason == "out_of_role":
        if by_box:
            return _("Only the box doubles the members of the team and answers their doubles.")
        if by_member:
            return _(
                "The box has no cube of its own: the members double the box and answer its "
                "doubles on their own cubes."
            )
        return _("Only the box and the acting captain roll and move.")
    if reason == "already_dropped" and not by_box:
        return _("You are out of this game: the double on your cube was dropped.")
    if reason == "double_pending":
        if isinstance(action, MemberDoubles):
            return _("Your double waits for the box's answer.")
        return _("Nobody rolls while a double waits for an answer.")
    if reason == "no_double_pending" and isinstance(action, MemberAnswers):
        return _("No double waits for your answer.")
    return None


def board_refusal(_: Speech, error: ActionError) -> str:
    """A refused roll or play on the board, in the match's words."""
    return texts.action_refusal(_, error)


def member_name(_: Speech, member: str, name: str, game: ChouetteGame) -> str:
    """A team member's name with their role in the game: "Bob (captain)", "Cy (acting
    captain)" (playing for the team once the captain's cube is out of the game), or the name
    alone."""
    if member == game.table.captain:
        return _("{name} (captain)").format(name=name)
    if member == game.acting_captain:
        return _("{name} (acting captain)").format(name=name)
    return name


def playing_captain(_: Speech, game: ChouetteGame, names: Mapping[str, str]) -> str:
    """Who rolls and moves for the team, with their role: the captain or the acting captain."""
    player = game.acting_captain or game.table.captain
    return member_name(_, player, names[player], game)


def cube_line(_: Speech, cube: MemberCube, name: str, game: ChouetteGame) -> str:
    """One member's cube: "Bob (captain): cube 2, the box owns it"."""
    who = member_name(_, cube.member, name, game)
    if cube.dropped_by is Side.TEAM:
        state = _("dropped at {value}, out of this game").format(value=cube.value)
    elif cube.dropped_by is Side.BOX:
        state = _("the box dropped at {value}: won").format(value=cube.value)
    elif cube.offered_by is Side.BOX:
        state = _("doubled by the box to {value}, waiting for an answer").format(
            value=cube.value * 2
        )
    elif cube.offered_by is Side.TEAM:
        state = _("doubles the box to {value}, waiting for the box").format(value=cube.value * 2)
    elif cube.owner is CubeOwner.CENTRE:
        state = _("cube {value} in the centre").format(value=cube.value)
    elif cube.owner is CubeOwner.BOX:
        state = _("cube {value}, the box owns it").format(value=cube.value)
    else:
        state = _("cube {value}, owned by the member").format(value=cube.value)
    return f"{who}: {state}"


def signed(points: int) -> str:
    """``+2``, ``−1``, ``0``."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def scores_line(_: Speech, totals: Mapping[int, int], names: Mapping[int, str]) -> str:
    if not totals:
        return _("Scores: no game finished yet.")
    listed = " · ".join(
        f"{names.get(user, '?')} {signed(points)}" for user, points in totals.items()
    )
    return _("Scores: {scores}").format(scores=listed)


def order_line(_: Speech, order: Sequence[int], names: Mapping[int, str]) -> str:
    """ "Box: Ann · captain: Bob · then: Cy, Dee"."""
    if len(order) < 2:
        return _("Seated: {names}").format(names=", ".join(names[user] for user in order))
    text = _("Box: {box} · captain: {captain}").format(box=names[order[0]], captain=names[order[1]])
    if len(order) > 2:
        text += " · " + _("then: {line}").format(line=", ".join(names[user] for user in order[2:]))
    return text


def result_line(_: Speech, game: ChouetteGame, names: Mapping[str, str]) -> str:
    """How a finished game ended on the board, or that no member was left in it. The team is
    named by who played for it at the end: the captain, or the acting captain once the
    captain's cube was out of the game."""
    result = game.result
    if result is None:
        return _("Every team member's game is over: the game ends.")
    kind = texts.resignation_name(_, WinKind(result.kind))
    if result.winner is Side.BOX:
        return _("{box} (box) wins {kind} on the board.").format(
            box=names[game.table.box], kind=kind
        )
    played = names[game.acting_captain or game.table.captain]
    return _("The team ({captain}) wins {kind} on the board.").format(captain=played, kind=kind)


def settlement_line(_: Speech, points: Mapping[int, int], names: Mapping[int, str]) -> str:
    listed = ", ".join(f"{names[user]} {signed(won)}" for user, won in points.items())
    return _("This game: {points}").format(points=listed)
