"""What a chouette player's command or button does, made from the game as it is now: a roll
(the session's next dice), a play, a double, an answer."""

from __future__ import annotations

from bot.core.chouette.play import Make
from gammon.actions import Move, Roll
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
from storage import ChouetteRepository


def _side(game: ChouetteGame, player: str) -> int:
    """The board player the caller would move for: the box's, else the team's (the rules
    refuse anyone but the acting captain)."""
    return 0 if player == game.table.box else 1


def roll(chouettes: ChouetteRepository, chouette_id: int) -> Make:
    async def make(game: ChouetteGame, player: str, nonce: int) -> ChouetteAction:
        dice = await chouettes.dice_for(chouette_id, nonce)
        return BoardAction(player, Roll(_side(game, player), dice))

    return make


def move(play: str) -> Make:
    async def make(game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        return BoardAction(player, Move(_side(game, player), play))

    return make


def member_doubles() -> Make:
    async def make(_game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        return MemberDoubles(player)

    return make


def box_doubles(member: str) -> Make:
    async def make(_game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        return BoxDoubles(player, (member,))

    return make


def answer(answer: Answer, member: str | None) -> Make:
    """The presser answers the box's double on their own cube (``member`` None), or the box
    answers ``member``'s double."""

    async def make(_game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        if member is None:
            return MemberAnswers(player, answer)
        return BoxAnswers(player, member, answer)

    return make
