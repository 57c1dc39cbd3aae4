"""[Open board]: the presser's way to the match's board page, said to them alone.

A player gets a private link: the board page's address with a key signed for them and this
match (:mod:`bot.core.page_access`) after ``#``, so it never reaches a server's log; it acts
for them until it expires. Anyone else gets the address to watch. Telegram opens the page as
a Mini App instead where it can (the adapter turns the button into one), and its signed data
proves the player there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from bot.core.context import Context
from bot.core.documents.web_links import WebLinks
from bot.core.model import Button, Message, Private
from bot.core.page_access.player_keys import PlayerKey, issue
from bot.core.posting import TELEGRAM
from bot.core.runtime.time_source import TimeSource
from bot.core.tokens import Token, Verb, format_token
from storage import MatchInfo, MatchRepository
from storage.errors import NotFoundError


@dataclass
class BoardLinks:
    """The board page's links of matches (see the module's docstring)."""

    matches: MatchRepository
    links: WebLinks
    secret: Callable[[], Awaitable[bytes]]
    time: TimeSource
    hours: float = 24.0

    async def answer(self, context: Context, match_id: int) -> list[Message]:
        """The presser's link: a player's own, anyone else's to watch."""
        _ = context._
        if not self.links.enabled:
            return context.refuse(_("This bot serves no web pages."))
        try:
            info = await self.matches.match_info(match_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        page = self.links.board(info.slug)
        seat = info.player_index(context.user.id)
        if seat is None and not _may_watch(context, info):
            return context.refuse(_("That button is out of date."))
        if seat is None or info.status != "active":
            text = _("The board of match {id}, live: {url}").format(id=info.id, url=page)
        else:
            expires = self.time() + timedelta(hours=self.hours)
            key = PlayerKey(
                info.id,
                context.request.actor.platform,
                context.request.actor.user_id,
                int(expires.timestamp()),
            )
            url = f"{page}#key={issue(key, await self.secret())}"
            text = _(
                "Your board of match {id}, to play by tapping: {url}\n"
                "The link plays for you until {until} UTC: keep it to yourself."
            ).format(id=info.id, url=url, until=expires.strftime("%Y-%m-%d %H:%M"))
        buttons: tuple[Button, ...] = ()
        if context.request.actor.platform == TELEGRAM.name:
            # A private answer to a press without a button would be a toast, which holds no
            # link; with the Mini App's button it goes to the player's private chat, where
            # the button opens the page and Telegram's signed data proves the player.
            token = format_token(Token(Verb.BOARD_PAGE, "m", info.id, info.version))
            buttons = (Button(_("Open board"), token, page=page),)
        return [
            Message(
                context.request.chat,
                text,
                buttons,
                kind=Private(context.request.actor.user_id),
            )
        ]


def _may_watch(context: Context, info: MatchInfo) -> bool:
    """Whether someone who does not play may have the match's address: pressed in its own
    chat (where its board is), or asked with the address itself (Telegram's deep link from
    the group carries it). Match numbers are no secret; an address must not be got by one."""
    return context.chat.id == info.chat_id or context.request.argument == info.slug
