"""What was just done at a chouette, in words: a sentence for each cube action and each roll
that cannot be played (posted as notes), the opening roll, and the one line every board's
caption starts with, saying what the last action was ("Ann (box) rolled 6-4 and played
24/18 13/9.", "Bob (captain) doubles the box to 2."), as FIBS tells what was played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.core.chouette.texts import member_name
from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from gammon.actions import CannotMove, Move, OpeningRoll, Roll
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    MemberAnswers,
    MemberDoubles,
)


def describe(
    _: Speech, game: ChouetteGame, recorded: Sequence[ChouetteAction], names: Mapping[str, str]
) -> list[str]:
    """A sentence for each cube action and each roll that cannot be played among ``recorded``
    (the actions that led to ``game``)."""
    notes = []
    previous: ChouetteAction | None = None
    for action in recorded:
        if isinstance(action, BoxDoubles):
            doubled = ", ".join(names[member] for member in action.members)
            box = names[game.table.box]
            notes.append(_("{box} (box) doubles {names}.").format(box=box, names=doubled))
        elif not isinstance(action, BoardAction) or isinstance(action.action, CannotMove):
            notes.append(_sentence(_, game, action, previous, names))
        previous = action
    return notes


def caption(_: Speech, game: ChouetteGame, names: Mapping[str, str]) -> str | None:
    """One line saying what the last action of ``game`` was (``game`` as it is right after
    it), or None before the first."""
    if not game.actions:
        return None
    last = game.actions[-1]
    previous = game.actions[-2] if len(game.actions) > 1 else None
    if isinstance(last, BoxDoubles):
        return _box_doubles(_, game, last, names)
    if isinstance(last, BoardAction):
        inner = last.action
        if isinstance(inner, OpeningRoll):  # the last one: no tie, the winner plays it
            first, second = inner.dice
            starter = game.table.box if first > second else game.acting_captain or ""
            return _("{name} starts with {roll}.").format(
                name=role_name(_, game, starter, names), roll=roll_text(_.locale, inner.dice)
            )
        if isinstance(inner, Roll):
            return _("{name} rolled {dice}.").format(
                name=role_name(_, game, last.player, names), dice=roll_text(_.locale, inner.dice)
            )
        if isinstance(inner, Move):
            dice = _dice_of(previous)
            name = role_name(_, game, last.player, names)
            if dice is None:
                return _("{name}: {play}").format(name=name, play=inner.play)
            return _("{name} rolled {roll} and played {play}.").format(
                name=name, roll=roll_text(_.locale, dice), play=inner.play
            )
    return _sentence(_, game, last, previous, names)


def opening_line(
    _: Speech, game: ChouetteGame, dice: tuple[int, int], names: Mapping[str, str]
) -> str:
    """An opening roll: the box's die first, then the captain's, and who starts (or a tie)."""
    first, second = dice
    box, captain = names[game.table.box], names[game.acting_captain or game.table.captain]
    if first == second:
        text = _("Opening roll: {a} {x}, {b} {y}. A tie: rolling again.")
    else:
        text = _("Opening roll: {a} {x}, {b} {y}. {winner} starts with {high}-{low}.")
    return text.format(
        a=box,
        x=first,
        b=captain,
        y=second,
        winner=box if first > second else captain,
        high=max(dice),
        low=min(dice),
    )


def role_name(_: Speech, game: ChouetteGame, player: str, names: Mapping[str, str]) -> str:
    """A player's name with their role in the game: "Ann (box)", "Bob (captain)", "Cy (acting
    captain)", or the name alone."""
    if player == game.table.box:
        return _("{name} (box)").format(name=names[player])
    return member_name(_, player, names[player], game)


def _dice_of(action: ChouetteAction | None) -> tuple[int, int] | None:
    if isinstance(action, BoardAction) and isinstance(action.action, OpeningRoll | Roll):
        return action.action.dice
    return None


def _box_doubles(
    _: Speech, game: ChouetteGame, action: BoxDoubles, names: Mapping[str, str]
) -> str:
    doubled = ", ".join(names[member] for member in action.members)
    box = names[game.table.box]
    values = {game.cube(member).value * 2 for member in action.members}
    if len(values) == 1:
        return _("{box} (box) doubles {names} to {value}.").format(
            box=box, names=doubled, value=values.pop()
        )
    return _("{box} (box) doubles {names}.").format(box=box, names=doubled)


def _sentence(
    _: Speech,
    game: ChouetteGame,
    action: ChouetteAction,
    previous: ChouetteAction | None,
    names: Mapping[str, str],
) -> str:
    """A member's double, an answer, or a roll that cannot be played."""
    if isinstance(action, MemberDoubles):
        value = game.cube(action.player).value * 2
        return _("{name} doubles the box to {value}.").format(
            name=names[action.player], value=value
        )
    if isinstance(action, MemberAnswers | BoxAnswers):
        return _answer(_, game, action, names)
    assert isinstance(action, BoardAction)
    dice = _dice_of(previous)
    return _("{name} rolled {dice} and cannot move.").format(
        name=names[action.player], dice=roll_text(_.locale, dice) if dice else ""
    )


def _answer(
    _: Speech, game: ChouetteGame, action: MemberAnswers | BoxAnswers, names: Mapping[str, str]
) -> str:
    member = action.member if isinstance(action, BoxAnswers) else action.player
    cube = game.cube(member)
    box = names[game.table.box]
    if action.answer is Answer.BEAVER:
        if isinstance(action, MemberAnswers):
            return _("{name} beavers the box's double: their cube is at {value}.").format(
                name=names[member], value=cube.value
            )
        return _("{box} (box) beavers {name}'s double: that cube is at {value}.").format(
            box=box, name=names[member], value=cube.value
        )
    if isinstance(action, MemberAnswers):
        if action.answer is Answer.DROP:
            return _("{name} drops the box's double and pays {value}.").format(
                name=names[member], value=cube.value
            )
        return _("{name} takes the box's double: their cube is at {value}.").format(
            name=names[member], value=cube.value
        )
    if action.answer is Answer.DROP:
        return _("{box} (box) drops {name}'s double and pays {value}.").format(
            box=box, name=names[member], value=cube.value
        )
    return _("{box} (box) takes {name}'s double: that cube is at {value}.").format(
        box=box, name=names[member], value=cube.value
    )
