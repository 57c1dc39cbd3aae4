"""``/matches``: the caller's active matches, a page at a time.

A player in many matches would get one message longer than any platform takes (600 matches
make some 19,000 characters; Discord takes 2,000, Telegram 4,096), so the list comes in pages
of :data:`PER_PAGE` matches, each line's names shortened to :data:`NAME_SHOWN` characters: a
page stays under Discord's limit even with every character of every name escaped. ``/matches
2`` shows the second page; [◀] and [▶] carry the page they lead to in their token, and a press
turns the list's own message to that page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.core.context import Context
from bot.core.model import Button, Message, Private, in_place_of_pressed
from bot.core.people import PlayerNames
from bot.core.runtime.time_source import TimeSource
from bot.core.text.numbers import duration
from bot.core.tokens import Token, Verb, format_token
from storage import MatchInfo, MatchRepository

PER_PAGE: Final = 10
NAME_SHOWN: Final = 24  # characters of a name in the list
_PAGE: Final = re.compile(r"[0-9]{1,6}")


def pages_of(count: int) -> int:
    """How many pages ``count`` matches fill (at least one).

    >>> [pages_of(count) for count in (0, 1, 10, 11, 600)]
    [1, 1, 1, 2, 60]
    """
    return max(1, -(-count // PER_PAGE))


def shortened(name: str) -> str:
    """A name as the list shows it: at most :data:`NAME_SHOWN` characters.

    >>> shortened("Bartholomew Aloysius Featherstonehaugh")
    'Bartholomew Aloysius Fe…'
    """
    return name if len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…"


@dataclass(frozen=True)
class MatchList:
    matches: MatchRepository
    names: PlayerNames
    time: TimeSource

    async def command(self, context: Context, argument: str) -> list[Message]:
        """``/matches`` (the first page) or ``/matches 3``."""
        wanted = argument.strip()
        if wanted and not _PAGE.fullmatch(wanted):
            return context.refuse(
                context._("Which page? /matches alone shows the first, /matches 2 the second.")
            )
        return await self._page(context, int(wanted) if wanted else 1)

    async def press(self, context: Context, token: Token) -> list[Message]:
        """[◀] or [▶]: the list's message shows the page the button leads to."""
        if token.target != context.user.id:
            return context.refuse(
                context._("This list belongs to someone else: /matches shows yours.")
            )
        return [
            in_place_of_pressed(message) for message in await self._page(context, token.version)
        ]

    async def _page(self, context: Context, page: int) -> list[Message]:
        _ = context._
        infos = await self.matches.active_matches_of(context.user.id)
        if not infos:
            return context.refuse(_("You have no active matches."))
        pages = pages_of(len(infos))
        page = min(max(page, 1), pages)
        shown = infos[(page - 1) * PER_PAGE : page * PER_PAGE]
        if pages == 1:
            lines = [_("Your active matches:")]
        else:
            lines = [
                _("Your active matches, page {page} of {pages}:").format(page=page, pages=pages)
            ]
        lines += [await self._line(context, info) for info in shown]
        buttons = []
        if page > 1:
            buttons.append(Button("◀", _page_token(context, page - 1)))
        if page < pages:
            buttons.append(Button("▶", _page_token(context, page + 1)))
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                tuple(buttons),
                kind=Private(context.request.actor.user_id),
            )
        ]

    async def _line(self, context: Context, info: MatchInfo) -> str:
        _ = context._
        loaded = await self.matches.load_match(info.id)
        players = await self.names.of(loaded)
        me = info.player_index(context.user.id) or 0
        opponent = shortened(players[1 - me].display_name)
        if info.turn_user_id is None:
            turn = _("waiting for the opening roll")
        elif info.turn_user_id == context.user.id:
            turn = _("your turn")
        else:
            turn = _("{name}'s turn").format(name=opponent)
        left = ""
        if info.deadline is not None:
            seconds = (info.deadline - self.time()).total_seconds()
            left = " · " + _("{time} left").format(time=duration(_.locale, seconds))
        line = _("Match {id} vs {name}: {mine}–{theirs}, {turn}").format(
            id=info.id,
            name=opponent,
            mine=loaded.state.score[me],
            theirs=loaded.state.score[1 - me],
            turn=turn,
        )
        return line + left


def _page_token(context: Context, page: int) -> str:
    return format_token(Token(Verb.MATCHES_PAGE, "u", context.user.id, page))
