"""``/double`` at a chouette, typed or pressed: the box doubles the members it names, or every
member whose cube it may turn when it names none or types ``/double all`` ([Double all]); a
member doubles the box on their own cube and names nobody (naming themselves, or the box,
means the same)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from bot.core.chouette.answers import Users, named_players
from bot.core.chouette.play import Make
from bot.core.chouette.view import box_may_double, box_turnable
from bot.core.model import Actor
from bot.core.refusal import Refusal
from bot.core.text.i18n import Speech
from gammon.chouette import BoxDoubles, ChouetteAction, ChouetteGame, MemberDoubles

# ``/double all``: every member, never read as a name (a player called Allan is named in full
# or mentioned). A command word, in English in every language, as /chouette join is.
EVERYONE: Final = "all"


def names_everyone(argument: str) -> bool:
    """Whether a typed /double says ``all`` (alone, or among names it then includes)."""
    return EVERYONE in (word.casefold() for word in re.split(r"[\s,]+", argument))


def box_doubles_all(_: Speech) -> Make:
    """[Double all], or /double without a name by the box: every member whose cube the box
    may turn (the rules say why not when it may not double now)."""

    async def make(game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        members = box_may_double(game) or box_turnable(game)
        if player == game.table.box and not members:
            raise Refusal(_("No member's cube can be doubled by the box now."))
        return BoxDoubles(player, members)

    return make


def typed_double(_: Speech, seated: Users, mentions: Sequence[Actor], argument: str) -> Make:
    """The caller's typed /double, made from the game as it is now: ``mentions`` and
    ``argument`` are whom the command names."""
    everyone = box_doubles_all(_)

    async def make(game: ChouetteGame, player: str, nonce: int) -> ChouetteAction:
        box = game.table.box
        everyone_named = names_everyone(argument)
        named: list[str] = []
        if not everyone_named and (mentions or argument.strip()):
            named = named_players(
                _, await seated([int(key) for key in game.table.order]), mentions, argument
            )
        if player != box:
            if everyone_named or any(key not in (player, box) for key in named):
                raise Refusal(
                    _(
                        "Each member doubles only the box, on their own cube: type /double "
                        "without a name."
                    )
                )
            return MemberDoubles(player)  # the rules refuse anyone out of the team
        if box in named:
            raise Refusal(_("You are the box: name the members of the team you double."))
        if everyone_named or not named:
            return await everyone(game, player, nonce)
        return BoxDoubles(player, [key for key in game.table.order if key in named])

    return make
