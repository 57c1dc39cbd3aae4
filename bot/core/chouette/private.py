"""A chouette command typed in a private chat with the bot (``/roll``, ``/move``, a plain
move, ``/double``): acted on in the player's chouette game that waits for them, as if typed
in the chouette's chat. The board and the notes are posted there; refusals come back to the
private chat, which also gets a receipt.

Which game a command means, for a player who may also play matches:

- ``#c12 13/10* 6/5`` names chouette 12 (``#12 13/10* 6/5`` names match 12, as before);
- else what waits for them: a match whose turn is theirs, or a chouette game in which they
  are the box or the acting captain on turn, or must answer a double (for ``/double`` also
  a member who may double the box now). One waits: that one. Several, a chouette among them:
  a refusal naming them all (matches as ``#12``, chouettes as ``#c3``);
- nothing waits: their match as before (its answer says why not); without a match, their one
  chouette game (its answer says why not), or a refusal naming their chouettes.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.chouette.view import must_act, team_may_double
from bot.core.context import Context
from bot.core.match.match_finder import MatchFinder, delivered_in_private, example
from bot.core.model import Message
from gammon.chouette import ChouetteGame
from storage import ChouetteInfo, ChouetteRepository, ChouetteStatus, MatchInfo, NotFoundError


class InChat(Protocol):
    """Acting in the chouette of the context's chat (``ChouetteService.fallback``): None
    when the caller does not sit at it."""

    async def __call__(
        self, context: Context, verb: str, argument: str
    ) -> list[Message] | None: ...


def waits_for(game: ChouetteGame, player: str, verb: str) -> bool:
    """Whether the game waits for ``player`` (the rules' id) to act with ``verb``."""
    return player in must_act(game) or (verb == "double" and player in team_may_double(game))


def numbered(chouettes: list[ChouetteInfo]) -> list[str]:
    """How a private chat names chouettes: ``#c`` and the number."""
    return [f"#c{info.id}" for info in chouettes]


class ChouetteInPrivate:
    def __init__(self, chouettes: ChouetteRepository, finder: MatchFinder, act: InChat) -> None:
        self._chouettes = chouettes
        self._finder = finder
        self._act = act

    async def answer(
        self, context: Context, verb: str, argument: str, wanted: int | None = None
    ) -> list[Message] | None:
        """The answer when the command, typed in a private chat, means a chouette game
        (``wanted``: the chouette the player named); None when it means their match, to be
        found as before."""
        if wanted is not None:
            return await self._named(context, wanted, verb, argument)
        seated = [
            info
            for info in await self._chouettes.seated_in(context.user.id)
            if info.status is ChouetteStatus.PLAYING
        ]
        if not seated:
            return None
        waiting = [info for info in seated if await self._waits(context, info, verb)]
        mine, matches = await self._finder.waiting(context)
        if waiting and len(waiting) + len(matches) > 1:
            return self._several(context, matches, waiting, verb)
        if matches:
            return None
        if waiting:
            return await self._in_chat(context, waiting[0], verb, argument)
        if mine:
            return None
        if len(seated) == 1:
            return await self._in_chat(context, seated[0], verb, argument)
        return context.refuse(
            context._("None of your chouette games waits for you now ({numbers}).").format(
                numbers=", ".join(numbered(seated))
            )
        )

    async def _waits(self, context: Context, info: ChouetteInfo, verb: str) -> bool:
        game = (await self._chouettes.load(info.id)).game
        return game is not None and waits_for(game, str(context.user.id), verb)

    async def _named(
        self, context: Context, chouette_id: int, verb: str, argument: str
    ) -> list[Message]:
        try:
            info = await self._chouettes.info(chouette_id)
        except NotFoundError:
            info = None
        if (
            info is None
            or info.status is ChouetteStatus.ENDED
            or not info.is_seated(context.user.id)
        ):
            return context.refuse(
                context._("You do not sit at a chouette #c{id}.").format(id=chouette_id)
            )
        if info.status is not ChouetteStatus.PLAYING:
            return self._no_game(context, info)
        return await self._in_chat(context, info, verb, argument)

    async def _in_chat(
        self, context: Context, info: ChouetteInfo, verb: str, argument: str
    ) -> list[Message]:
        """The command acted on in the chouette's chat; the private chat gets the refusals
        and a receipt."""
        _ = context._
        there = await self._finder.in_chat(context, info.chat_id)
        answer = await self._act(there, verb, argument)
        if answer is None:  # they left the table a moment ago
            return self._no_game(context, info)
        receipt = _("Done in chouette #c{id}: the board is in its chat.").format(id=info.id)
        return delivered_in_private(there, context.request.chat, answer, receipt)

    @staticmethod
    def _no_game(context: Context, info: ChouetteInfo) -> list[Message]:
        return context.refuse(
            context._("No game is being played at chouette #c{id} now.").format(id=info.id)
        )

    @staticmethod
    def _several(
        context: Context, matches: list[MatchInfo], chouettes: list[ChouetteInfo], verb: str
    ) -> list[Message]:
        numbers = [f"#{info.id}" for info in matches] + numbered(chouettes)
        return context.refuse(
            context._(
                "Several of your games wait for you ({numbers}; #c marks a chouette). Put "
                "the number first, e.g. {example}, or play in the game's chat."
            ).format(numbers=", ".join(numbers), example=example(verb, numbered(chouettes)[0]))
        )
