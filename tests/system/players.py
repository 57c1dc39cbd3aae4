"""People playing matches through the bot processes: one match in each group chat, from the
challenge to a number of actions (or to its end by resignation), every step taken only once
the bot has handled the one before, as a person waits for the board.

Each action is chosen from the match as the database stores it (whose turn, the legal plays),
like ``benchmarks/budget.py``'s players, and is written down as it is sent: what the event
log of the match must hold afterwards, exactly once each (:mod:`tests.system.invariants`).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from gammon.flow import MatchState, Phase
from storage import ChatRepository, Database, LoadedMatch, MatchRepository
from tests.fakes.telegram_bot_api import user
from tests.system.inbox_watch import HandledWatch
from tests.system.telegram import LeanBotApi, Webhooks

HANDLED_TIMEOUT_S = 60.0  # an update taken over after a kill waits for the stale time too
IN_FLIGHT = 32  # updates sent and not yet handled, at most: the rest of the people wait
FIRST_CHAT = -1_001_000_000
FIRST_USER = 100_000


@dataclass(frozen=True)
class Plan:
    """What is played at a table: ``actions`` after the accept (rolls, moves), then maybe a
    resignation that ends the match; ``options`` go with the challenge."""

    actions: int
    length: int = 3
    options: str = ""
    resign: bool = False


@dataclass(frozen=True)
class Sent:
    """An acknowledged update; for match actions what the event log must record for it
    (``kind`` as :mod:`gammon.actions` names it, the player's seat, the play)."""

    update_id: int
    kind: str  # challenge, accept, /resign (the question), or the action's kind
    seat: int | None = None
    play: str = ""
    process: int = 0
    posted_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    handled_at: datetime | None = None


@dataclass
class Table:
    """One group chat with two people and their match."""

    number: int
    plan: Plan
    sent: list[Sent] = field(default_factory=list)
    match_id: int | None = None
    parked: bool = False  # played what its plan says

    @property
    def chat_id(self) -> int:
        return FIRST_CHAT - self.number

    @property
    def people(self) -> tuple[dict[str, Any], dict[str, Any]]:
        first = FIRST_USER + 2 * self.number
        return user(first, f"Ann{self.number}"), user(first + 1, f"Ben{self.number}")

    def actions(self) -> list[Sent]:
        return [sent for sent in self.sent if sent.seat is not None]


class Driver:
    """Plays tables through the webhooks, reading the matches from ``database``.

    At most ``in_flight`` updates are being handled at once: the processes answer every
    webhook call at once and handle the update afterwards, so with every table sending, each
    process would hold a quarter of them, each waiting seconds for its turn on the cores.
    Bounded, the time to handle an update stays well below the time after which another
    process takes it over as orphaned."""

    def __init__(
        self,
        api: LeanBotApi,
        webhooks: Webhooks,
        watch: HandledWatch,
        database: Database,
        in_flight: int = IN_FLIGHT,
    ) -> None:
        self._in_flight = asyncio.Semaphore(in_flight)
        self.api = api
        self.webhooks = webhooks
        self.watch = watch
        self.database = database
        self.chats = ChatRepository(database)
        self.matches = MatchRepository(database)

    def lane(self, in_flight: int) -> Driver:
        """A driver like this one with a bound of its own: tables that must not wait behind
        the others' updates."""
        return Driver(self.api, self.webhooks, self.watch, self.database, in_flight)

    @property
    def handled(self) -> int:
        return len(self.watch.handled)

    async def play(self, table: Table) -> None:
        """The table's plan, from the challenge on."""
        rng = random.Random(table.number)
        plan = table.plan
        challenger, opponent = table.people
        text = f"/challenge {opponent['first_name']} {plan.length} {plan.options}".strip()
        challenge = self.api.text_with_mention(challenger, table.chat_id, text, opponent)
        await self._send(table, challenge, "challenge")
        await self._press(table, opponent, "Accept", "accept")
        table.match_id = await self._match_id(table)
        for _ in range(plan.actions):
            loaded = await self.matches.load_match(table.match_id)
            if loaded.info.status != "active":
                break
            await self._act(table, loaded, rng)
        if plan.resign:
            await self._resign(table)
        table.parked = True

    async def _act(self, table: Table, loaded: LoadedMatch, rng: random.Random) -> None:
        state = loaded.state
        seat = _to_act(state)
        person = table.people[seat]
        if state.phase is Phase.ROLLING:
            await self._press(table, person, "Roll", "roll", seat)
        elif state.phase is Phase.MOVING:
            play = str(rng.choice(state.legal_plays()))
            update = self.api.text(person, table.chat_id, f"/move {play}")
            await self._send(table, update, "move", seat, play)
        else:
            raise AssertionError(f"table {table.number}: unexpected phase {state.phase}")

    async def _resign(self, table: Table) -> None:
        assert table.match_id is not None
        loaded = await self.matches.load_match(table.match_id)
        if loaded.info.status != "active":
            return
        seat = _to_act(loaded.state)
        person = table.people[seat]
        await self._send(table, self.api.text(person, table.chat_id, "/resign"), "/resign")
        await self._press(table, person, "Resign", "resign", seat)  # "Do you really ...?"
        await self._press(table, table.people[1 - seat], "Accept", "accept_resignation", 1 - seat)

    async def _press(
        self, table: Table, person: dict[str, Any], label: str, kind: str, seat: int | None = None
    ) -> None:
        found = self.api.newest_button(table.chat_id, label)
        if found is None:
            raise AssertionError(
                f"table {table.number}: no [{label}] button for {kind} after: "
                f"{self.api.recent(table.chat_id)}"
            )
        message_id, data = found
        update = self.api.press(person, table.chat_id, message_id, data)
        await self._send(table, update, kind, seat)

    async def _send(
        self,
        table: Table,
        update: dict[str, Any],
        kind: str,
        seat: int | None = None,
        play: str = "",
    ) -> None:
        """Deliver the update, write it down as acknowledged, and wait until it is handled."""
        async with self._in_flight:
            delivery = await self.webhooks.deliver(update)
            sent = Sent(delivery.update_id, kind, seat, play, delivery.process, delivery.posted_at)
            table.sent.append(sent)
            handled_at = await self.watch.wait(delivery.update_id, HANDLED_TIMEOUT_S)
        table.sent[-1] = replace(sent, handled_at=handled_at)

    async def _match_id(self, table: Table) -> int:
        chat = await self.chats.find_chat("telegram", str(table.chat_id))
        assert chat is not None, f"table {table.number}: the bot never saw its chat"
        info = await self.matches.latest_match_in(chat.id)
        assert info is not None, (
            f"table {table.number}: the accept started no match; the chat shows "
            f"{self.api.recent(table.chat_id)}; the latest toasts: {self.api.toasts()[-5:]}"
        )
        return info.id


def _to_act(state: MatchState) -> int:
    """The seat that acts now."""
    actor = state.turn if state.turn is not None else state.player_on_roll
    assert actor is not None
    return int(actor)
