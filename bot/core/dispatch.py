"""The one way a request reaches a service: through the registry.

A typed command goes to the handler its :class:`~bot.core.registry.Command` refers to, after
the core has checked what the command declares about who may use it; a button press goes to
the service :data:`~bot.core.registry.PRESSES` names for its token; a typed play (text in a
private chat, or a reply to a board) is the ``/move`` command's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bot.core import registry
from bot.core.context import Context
from bot.core.model import MAX_TEXT, Message, Request
from bot.core.permissions import Permission
from bot.core.refusal import Refusal
from bot.core.tokens import BadTokenError, parse_token
from bot.core.tournament.commands import TournamentService

if TYPE_CHECKING:
    from bot.core.chouette.commands import ChouetteService
    from bot.core.computer.advice import AdviceService
    from bot.core.computer.computer_matches import ComputerMatches
    from bot.core.info.information import InfoService
    from bot.core.info.replaying import ReplayService
    from bot.core.info.standings import StandingsService
    from bot.core.match.challenges import ChallengeService
    from bot.core.match.match_list import MatchList
    from bot.core.match.playing import PlayService
    from bot.core.match.rematches import Rematches
    from bot.core.settings import SettingsService


@dataclass(frozen=True)
class Services:
    """The services the registry's handlers refer to (``lambda s: s.play.roll``)."""

    challenges: ChallengeService
    rematches: Rematches
    play: PlayService
    info: InfoService
    matches: MatchList
    settings: SettingsService
    computer: ComputerMatches
    advice: AdviceService
    replay: ReplayService
    standings: StandingsService
    chouette: ChouetteService
    tournaments: TournamentService


class Dispatcher:
    """Requests to the services the registry names."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def answer(self, context: Context, request: Request) -> list[Message]:
        """The answer to ``request``; a :class:`Refusal` raised anywhere on the way is said
        privately to the asker."""
        try:
            return await self._answer(context, request)
        except Refusal as refusal:
            return context.refuse(refusal.text)

    async def _answer(self, context: Context, request: Request) -> list[Message]:
        if request.token is not None:
            return await self.press(context, request.token)
        if request.command is not None:
            return await self.command(context, request.command.lower(), request.argument)
        if request.text is not None:
            return await _TYPED_PLAY.handler(self.services)(context, request.text)
        return []

    async def command(self, context: Context, name: str, argument: str) -> list[Message]:
        declared = registry.find(name)
        if declared is None:
            return context.refuse(context._("I do not know that command. /help lists them all."))
        restriction = declared.restriction
        if (
            restriction is not None
            and restriction.permission is Permission.ADMIN
            and restriction.concerns(argument)
            and not await context.may(Permission.ADMIN)
        ):
            return context.refuse(context._(restriction.refusal))
        return await declared.handler(self.services)(context, argument[:MAX_TEXT])

    async def press(self, context: Context, raw: str) -> list[Message]:
        try:
            token = parse_token(raw)
        except BadTokenError:
            token = None
        found = None if token is None else registry.route(token)
        if token is None or found is None:
            return context.refuse(context._("That button is out of date."))
        return await found.handler(self.services)(context, token)


def _typed_play() -> registry.Command:
    found = registry.find("move")
    if found is None:
        raise LookupError("the registry declares no /move")
    return found


_TYPED_PLAY: Final = _typed_play()
