"""The ports the composition root (:mod:`bot.core.bootstrap`) hands to the core's consumers.

Each consumer gets what it uses and nothing more:

- a chat platform's adapter (Discord, Telegram) a :class:`ChatFrontEnd`: requests in, messages
  out, the bot's own account, its threads, autocomplete, invitation links, the
  :class:`Delivery` port for posting and the webhook's :class:`UpdateInbox`;
- the console a :class:`ChatRequests`: requests and who administers its chat;
- the web pages the read model :class:`~bot.core.info.page_reads.MatchPageReads`;
- the minute clock its :class:`~bot.core.scheduler.ClockPort`;
- the host (:mod:`bot.hosting`, the console's main) the :class:`~bot.core.bootstrap.Ports`
  of a built core: the clock, the pages' reads, the analyst, the worker processes;
- tests and tools the :class:`~bot.core.bootstrap.Repositories` themselves, never a
  service's attributes.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.delivery import Delivery
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.permissions import AdminPort, RolePort
from bot.core.runtime.inbox import UpdateInbox
from bot.core.threads import ThreadPort


class ChatRequests(Protocol):
    """What a front-end without an account of its own (the console) asks of the core."""

    async def handle(self, request: Request) -> list[Message]:
        """Answer one request."""
        ...

    def register_admins(
        self, platform: str, port: AdminPort, roles: RolePort | None = None
    ) -> None:
        """How the front-end answers whether someone administers a chat (and, where members
        have roles, whether someone holds one)."""
        ...


class ChatFrontEnd(ChatRequests, Protocol):
    """What a chat platform's adapter (Discord, Telegram) asks of the core."""

    @property
    def delivery(self) -> Delivery:
        """Slots, users and reachability for posting (:mod:`bot.core.delivery`)."""
        ...

    @property
    def inbox(self) -> UpdateInbox:
        """A webhook's updates, each handled once."""
        ...

    def register_threads(self, platform: str, port: ThreadPort) -> None:
        """How the front-end opens a thread (or forum topic) in a group chat."""
        ...

    async def register_bot(self, platform: str, user_id: str, name: str) -> None:
        """The account the bot runs as on ``platform``."""
        ...

    async def suggest_moves(
        self, actor: Actor, chat: ChatRef, typed: str = "", limit: int = 25
    ) -> list[str]:
        """The caller's legal plays that match what they typed so far."""
        ...

    async def accept_challenge_link(
        self, actor: Actor, private_chat: ChatRef, challenge_id: int, event_id: str
    ) -> list[Message]:
        """Accept a challenge through an invitation link."""
        ...
