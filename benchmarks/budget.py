"""What a turn costs under the platforms' limits: the players, the bookkeeping and the figures
shared by ``benchmarks/telegram_adapter.py`` and ``benchmarks/discord_adapter.py``.

Scripted people play whole matches through a fake platform API, the way people do: roll by
pressing [Roll] when it is offered (doubling now and then, from a seeded RNG), take every
double, type a legal play as ``/move …``, and act ``pace`` seconds after the board they need
appeared. Every update they send gets a number; every API call the bot makes is logged with
the number of the update that caused it (the platform module carries it across: a context
variable in process, a request header over HTTP), so calls that arrive late, held back by a
rate limit, still count for the turn that caused them.

Only public behaviour is read: the fake API's log of calls and its stored messages (buttons are
found by their label), and the match as the database stores it (whose turn, the legal plays).
The board a player needs is the picture, sent or edited, that shows the position and match
IDs of the match as stored (so a "thinking" board of the bot, or the other match's board in
the same chat, is not taken for it); should the boards stop showing the IDs, the last picture
an update caused counts, once the bot is done with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.core.computer.computer import Computer
from gammon.flow import MatchState, Phase
from storage import ChatRepository, Database, LoadedMatch, MatchRepository, UserRepository

PACE_S = 5.0  # a person acts this long after the board they need appeared
DOUBLE_CHANCE = 0.15  # when [Double] is offered, pressed this often instead of [Roll]
MATCH_LENGTH = 3
BOARD_TIMEOUT_S = 600.0  # longest wait for a board (a deep rate-limit backlog still fits)
START_KINDS = frozenset({"challenge", "accept", "play"})  # before the first half-turn

logger = logging.getLogger(__name__)

# The update whose handling makes the current API call (None: none of the players' updates).
CAUSE: contextvars.ContextVar[int | None] = contextvars.ContextVar("cause", default=None)


@dataclass
class Seat:
    """A person at a table: their platform account and name."""

    user_id: str
    name: str
    username: str = ""


@dataclass
class Table:
    """One match being played in one chat (a group, a channel, or a private chat with the bot
    when ``against_bot``)."""

    label: str
    chat: str  # the platform's chat id
    seats: tuple[Seat, ...]  # the challenger first
    against_bot: bool = False
    match_id: int | None = None
    seat_by_db_id: dict[int, Seat] = field(default_factory=dict)

    def names_in(self, text: str) -> bool:
        return all(seat.name in text for seat in self.seats)


@dataclass
class Update:
    """One thing a person did: a button press or a typed command."""

    number: int
    table: Table
    seat: Seat
    kind: str  # challenge, accept, play, roll, double, take, move, resign-accept
    sent_at: float = 0.0  # when the bot was handed it
    board_at: float | None = None  # when the board the next player needs reached the API
    final: bool = False  # it ended the match
    half_turn: int = 0  # the table's half-turn it belongs to (0: the start)


@dataclass
class Sent:
    """One API call of the bot, as the fake API received it."""

    at: float
    cause: int | None  # the update that caused it
    chat: str | None  # the chat it posts to or edits in (None: not a chat's message)
    private: bool  # that chat is a private chat / DM
    kind: str  # what it is, for the breakdown ("sendPhoto", "PATCH strip buttons", ...)
    image: bool  # it carries a picture (a board, a replay)
    text: str = ""
    message: str | None = None  # the message it created or edited
    labels: tuple[str, ...] = ()  # the buttons it carries
    ok: bool = True  # it changed something (not refused, e.g. "message is not modified")


class Ledger:
    """Every update and every call, in order, and a way to wait for the next call."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.calls: list[Sent] = []
        self._event = asyncio.Event()

    def begin(self, table: Table, seat: Seat, kind: str) -> Update:
        update = Update(len(self.updates) + 1, table, seat, kind)
        self.updates.append(update)
        return update

    def add(self, sent: Sent) -> None:
        self.calls.append(sent)
        self._event.set()
        self._event = asyncio.Event()

    def waiter(self) -> asyncio.Event:
        """Set at the next call (take it before looking, then wait for it)."""
        return self._event

    async def next_call(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)

    def caused_by(self, update: Update) -> list[Sent]:
        """The calls an update caused; a call that carries no update number (should the
        number ever fail to travel) goes to the latest update in its chat before it."""
        return [
            call
            for call in self.calls
            if call.cause == update.number
            or (call.cause is None and self.latest_before(call) is update)
        ]

    def latest_before(self, call: Sent) -> Update | None:
        """The newest update sent in the call's chat before the call reached the API."""
        for update in reversed(self.updates):
            if update.table.chat == call.chat and 0 < update.sent_at <= call.at:
                return update
        return None

    async def quiet(self, seconds: float, limit: float = BOARD_TIMEOUT_S) -> None:
        """Until no call has arrived for ``seconds``."""
        started = time.perf_counter()
        while time.perf_counter() - started < limit:
            last = self.calls[-1].at if self.calls else started
            left = last + seconds - time.perf_counter()
            if left <= 0:
                return
            await asyncio.sleep(left)


class Bench(Protocol):
    """A platform's side: hands the players' updates to the bot through its fake API."""

    platform: str
    ledger: Ledger

    async def challenge(self, update: Update, opponent: Seat, length: int) -> None: ...

    async def play_bot(self, update: Update, length: int) -> None: ...

    async def move(self, update: Update, play: str) -> None: ...

    async def press(self, update: Update, label: str, near: Sent | None) -> None: ...

    def settled(self, update: Update) -> bool:
        """The bot is done with the update (no more calls will come from it)."""
        ...

    async def settle(self) -> None:
        """Until the bot is done with every update."""
        ...


@dataclass(frozen=True)
class Options:
    pace: float = PACE_S
    half_turns: int = 0  # per match; 0: whole matches
    double_chance: float = DOUBLE_CHANCE
    length: int = MATCH_LENGTH
    seed: int = 17
    verbose: bool = False  # list every half-turn on standard error


class Referee:
    """The match as the database stores it: whose turn, what may be played."""

    def __init__(self, database: Database, platform: str) -> None:
        self.platform = platform
        self.users = UserRepository(database)
        self.chats = ChatRepository(database)
        self.matches = MatchRepository(database)

    async def find_match(self, table: Table) -> int | None:
        chat = await self.chats.find_chat(self.platform, table.chat)
        user = await self.users.find_user(self.platform, table.seats[0].user_id)
        if chat is None or user is None:
            return None
        info = await self.matches.latest_match_for(chat.id, user.id)
        if info is None:
            return None
        for seat in table.seats:
            found = await self.users.find_user(self.platform, seat.user_id)
            if found is not None:
                table.seat_by_db_id[found.id] = seat
        return info.id

    async def load(self, table: Table) -> LoadedMatch | None:
        if table.match_id is None:
            table.match_id = await self.find_match(table)
            if table.match_id is None:
                return None
        return await self.matches.load_match(table.match_id)


def waiting_for(loaded: LoadedMatch, table: Table) -> Seat | None:
    """The person the match waits for (None: over, or the bot's turn)."""
    if loaded.info.status != "active":
        return None
    state = loaded.state
    actor = state.turn if state.turn is not None else state.player_on_roll
    return table.seat_by_db_id.get(loaded.info.player_ids[actor])


def board_ids(state: MatchState) -> tuple[str, ...]:
    """What a board of this state shows: gnubg's position ID and match ID."""
    ids = [state.position.id()]
    with contextlib.suppress(Exception):  # long nardy has no match ID
        ids.append(state.match_id())
    return tuple(ids)


def choose(state: MatchState, rng: random.Random, double_chance: float) -> tuple[str, str]:
    """What the player to act does: (kind, the play for a move)."""
    actor = state.turn if state.turn is not None else state.player_on_roll
    if state.phase is Phase.ROLLING:
        may_double = state.double_refusal(actor) is None
        return ("double" if may_double and rng.random() < double_chance else "roll"), ""
    if state.phase is Phase.DOUBLED:
        return "take", ""
    if state.phase is Phase.MOVING:
        return "move", str(rng.choice(state.legal_plays()))
    if state.phase is Phase.RESIGNING:
        return "resign-accept", ""
    raise RuntimeError(f"unexpected phase {state.phase}")


LABELS = {"roll": "Roll", "double": "Double", "take": "Take", "resign-accept": "Accept"}


class Driver:
    """Plays tables to their end (or to the half-turn limit) at a human pace."""

    def __init__(self, bench: Bench, referee: Referee, options: Options) -> None:
        self.bench = bench
        self.ledger = bench.ledger
        self.referee = referee
        self.options = options

    async def wait_for(self, check: Callable[[Sent], bool], update: Update) -> Sent:
        deadline = time.perf_counter() + BOARD_TIMEOUT_S
        seen = 0
        while time.perf_counter() < deadline:
            waiter = self.ledger.waiter()
            calls = self.ledger.calls
            for call in calls[seen:]:
                if call.cause == update.number and check(call):
                    return call
            seen = len(calls)
            try:
                await asyncio.wait_for(waiter.wait(), deadline - time.perf_counter())
            except TimeoutError:
                break
        raise RuntimeError(f"no answer to update {update.number} ({update.kind})")

    async def board_for(self, update: Update) -> Sent | None:
        """The board the next player needs after ``update`` (None: the match is over)."""
        table = update.table
        deadline = time.perf_counter() + BOARD_TIMEOUT_S
        while time.perf_counter() < deadline:
            waiter = self.ledger.waiter()
            pictures = [call for call in self.ledger.caused_by(update) if call.image]
            pictures = [call for call in pictures if call.chat == table.chat]
            settled = self.bench.settled(update)
            if pictures or settled:
                loaded = await self.referee.load(table)
                if loaded is not None and loaded.info.status != "active":
                    update.final = True
                    return None
                if loaded is not None and waiting_for(loaded, table) is not None:
                    ids = board_ids(loaded.state)
                    for call in pictures:
                        if all(part in call.text for part in ids):
                            return call
                if settled:  # none shows the IDs of the match as stored: the last picture
                    if not pictures:
                        logger.warning("update %s (%s) drew no board", update.number, update.kind)
                        return None
                    if any("ID" in call.text for call in pictures):
                        logger.warning(
                            "update %s (%s): no board shows the stored position",
                            update.number,
                            update.kind,
                        )
                    return pictures[-1]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.wait(), min(1.0, deadline - time.perf_counter()))
        raise RuntimeError(f"no board after update {update.number} ({update.kind})")

    async def start(self, table: Table) -> Sent | None:
        options = self.options
        if table.against_bot:
            update = self.ledger.begin(table, table.seats[0], "play")
            await self.bench.play_bot(update, 1)
            # The offer carries the commitment; the player's [Start] fixes the seeds.
            offer = await self.wait_for(lambda call: "Start" in call.labels, update)
            await pause_until(offer.at + options.pace)
            update = self.ledger.begin(table, table.seats[0], "play")
            await self.bench.press(update, "Start", offer)
            return await self.board_for(update)
        challenger, opponent = table.seats
        update = self.ledger.begin(table, challenger, "challenge")
        await self.bench.challenge(update, opponent, options.length)
        offer = await self.wait_for(lambda call: "Accept" in call.labels, update)
        await pause_until(offer.at + options.pace)
        update = self.ledger.begin(table, opponent, "accept")
        await self.bench.press(update, "Accept", offer)
        board = await self.board_for(update)
        update.board_at = board.at if board is not None else None
        return board

    async def play(self, table: Table) -> None:
        """One match, from the challenge (or ``/play``) on."""
        options = self.options
        rng = random.Random(f"{options.seed}:{table.label}")
        board = await self.start(table)
        shown_at = board.at if board is not None else time.perf_counter()
        half_turns = 0
        current: Seat | None = None
        last_kind = ""
        handed_over = True  # the last update passed the turn on
        while True:
            loaded = await self.referee.load(table)
            if loaded is None or loaded.info.status != "active":
                return
            seat = waiting_for(loaded, table)
            if seat is None:  # the bot's turn, still being played
                await self.ledger.next_call(1.0)
                continue
            # A half-turn, as the tests count it: one player's turn (a roll, pressed or
            # automatic, and its move), a double, or a take. A new one starts when the person
            # changes, with every roll or double (after an opponent who could not move, the
            # same person's next turn is a half-turn of its own), and with a move that follows
            # a move (its roll was automatic). Against the bot, the bot's turn (or cube answer)
            # after anything but a roll ends one too.
            kind, play = choose(loaded.state, rng, options.double_chance)
            if (
                seat is not current
                or kind in ("roll", "double")
                or (kind == "move" and last_kind == "move")
                or (table.against_bot and handed_over)
            ):
                if options.half_turns and half_turns >= options.half_turns:
                    return
                half_turns += 1
                current = seat
            last_kind = kind
            handed_over = kind != "roll"
            await pause_until(shown_at + options.pace)
            update = self.ledger.begin(table, seat, kind)
            update.half_turn = half_turns
            if kind == "move":
                await self.bench.move(update, play)
            else:
                await self.bench.press(update, LABELS[kind], board)
            board = await self.board_for(update)
            if board is not None:
                update.board_at = board.at
            shown_at = board.at if board is not None else time.perf_counter()

    async def play_all(self, tables: Iterable[Table]) -> None:
        await asyncio.gather(*(self.play(table) for table in tables))
        await self.bench.settle()


async def play_scenarios(
    driver: Driver, computer: Computer, one: list[Table], two: list[Table], private: list[Table]
) -> None:
    """The scenarios that were asked for, one after the other: a match in a chat, two matches in
    one chat, and a match against the bot (its engine warmed up first, as the host does)."""
    for tables in (one, two):
        if tables:
            await driver.play_all(tables)
    if private:
        await computer.warm_up()
        await driver.play_all(private)


async def pause_until(moment: float) -> None:
    left = moment - time.perf_counter()
    if left > 0:
        await asyncio.sleep(left)


# --- figures ------------------------------------------------------------------------------


@dataclass
class HalfTurn:
    table: Table
    seat: Seat
    updates: list[Update]
    calls: list[Sent]  # every call its updates caused

    @property
    def roll(self) -> str:
        """How the roll of this half-turn came: pressed, automatic, or none (a cube action)."""
        kinds = {update.kind for update in self.updates}
        if "roll" in kinds:
            return "pressed"
        return "auto" if "move" in kinds else "none"

    def limited(self) -> list[Sent]:
        """The calls the platform limits per chat: messages posted or edited in the match's
        chat."""
        return [call for call in self.calls if call.chat == self.table.chat]

    def notifications(self) -> list[Sent]:
        """Messages to private chats other than the match's own."""
        return [
            call
            for call in self.calls
            if call.private and call.chat is not None and call.chat != self.table.chat
        ]


def half_turns(ledger: Ledger, table: Table) -> list[HalfTurn]:
    """The table's half-turns, as the driver counted them (see :meth:`Driver.play`)."""
    by_cause: dict[int, list[Sent]] = {}
    for call in ledger.calls:
        owner = ledger.latest_before(call) if call.cause is None else None
        cause = call.cause if owner is None else owner.number
        if cause is not None:
            by_cause.setdefault(cause, []).append(call)
    found: list[HalfTurn] = []
    numbers: list[int] = []
    for update in ledger.updates:
        if update.table is not table or update.kind in START_KINDS:
            continue
        if not numbers or numbers[-1] != update.half_turn:
            found.append(HalfTurn(table, update.seat, [], []))
            numbers.append(update.half_turn)
        found[-1].updates.append(update)
        found[-1].calls += by_cause.get(update.number, [])
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def _mean(values: list[int] | list[float]) -> float | None:
    return round(statistics.fmean(values), 2) if values else None


def distribution(counts: list[int]) -> dict[str, int]:
    """How many half-turns had 0, 1, 2, 3, 4 or more calls."""
    found = {"0": 0, "1": 0, "2": 0, "3": 0, "4+": 0}
    for count in counts:
        found[str(count) if count < 4 else "4+"] += 1
    return found


def call_figures(prefix: str, turns: list[HalfTurn]) -> dict[str, Any]:
    """Chat-limited calls per half-turn: mean, max, distribution, by roll, by kind."""
    counts = [len(turn.limited()) for turn in turns]
    kinds: Counter[str] = Counter(call.kind for turn in turns for call in turn.limited())
    figures: dict[str, Any] = {
        f"{prefix}_half_turns": len(turns),
        f"{prefix}_calls_per_half_turn_mean": _mean(counts),
        f"{prefix}_calls_per_half_turn_max": max(counts, default=None),
        f"{prefix}_calls_per_half_turn_distribution": distribution(counts),
        f"{prefix}_calls_per_half_turn_auto_roll_mean": _mean(
            [len(turn.limited()) for turn in turns if turn.roll == "auto"]
        ),
        f"{prefix}_calls_per_half_turn_pressed_roll_mean": _mean(
            [len(turn.limited()) for turn in turns if turn.roll == "pressed"]
        ),
        f"{prefix}_calls_per_half_turn_cube_mean": _mean(
            [len(turn.limited()) for turn in turns if turn.roll == "none"]
        ),
        f"{prefix}_calls_per_half_turn_no_op_mean": _mean(
            [sum(1 for call in turn.limited() if not call.ok) for turn in turns]
        ),
        f"{prefix}_calls_per_half_turn_by_kind": {
            kind: round(count / len(turns), 2) for kind, count in kinds.most_common()
        }
        if turns
        else {},
    }
    return figures


def click_figures(suffix: str, updates: list[Update]) -> dict[str, Any]:
    """From a player's update to the board the next player needs (updates that ended the
    match, and those of the start, left out)."""
    timed = [
        (update.kind, (update.board_at - update.sent_at) * 1000)
        for update in updates
        if update.board_at is not None and update.kind not in ("challenge", "play")
    ]
    waits = [wait for _kind, wait in timed]
    by_kind: dict[str, list[float]] = {}
    for kind, wait in timed:
        by_kind.setdefault(kind, []).append(wait)
    return {
        f"click_to_board_ms_median_by_kind_{suffix}": {
            kind: round(statistics.median(values)) for kind, values in sorted(by_kind.items())
        },
        f"click_to_board_ms_median_{suffix}": round(statistics.median(waits)) if waits else None,
        f"click_to_board_ms_p99_{suffix}": round(percentile(waits, 0.99)) if waits else None,
        f"click_to_board_ms_max_{suffix}": round(max(waits)) if waits else None,
        f"click_to_board_samples_{suffix}": len(waits),
    }


def finished(tables: Iterable[Table], ledger: Ledger) -> bool:
    return all(any(u.final for u in ledger.updates if u.table is table) for table in tables)


def scenario_figures(
    ledger: Ledger, one: list[Table], two: list[Table], private: list[Table]
) -> dict[str, Any]:
    """The figures of the three scenarios that were run (each may be empty)."""
    figures: dict[str, Any] = {}
    if one:
        turns = [turn for table in one for turn in half_turns(ledger, table)]
        figures.update(call_figures("group", turns))
        notes = [len(turn.notifications()) for turn in turns]
        figures["private_notifications_per_half_turn_mean"] = _mean(notes)
        figures["private_notifications_per_half_turn_max"] = max(notes, default=None)
        figures["one_match_finished"] = finished(one, ledger)
        figures["one_match_start_calls"] = sum(
            1
            for update in ledger.updates
            if update.table in one and update.kind in START_KINDS
            for call in ledger.caused_by(update)
            if call.chat == update.table.chat
        )
        updates = [update for update in ledger.updates if update.table in one]
        figures.update(click_figures("one_match", updates))
    if two:
        turns = [turn for table in two for turn in half_turns(ledger, table)]
        counts = [len(turn.limited()) for turn in turns]
        figures["two_matches_half_turns"] = len(turns)
        figures["two_matches_group_calls_per_half_turn_mean"] = _mean(counts)
        figures["two_matches_finished"] = finished(two, ledger)
        updates = [update for update in ledger.updates if update.table in two]
        figures.update(click_figures("two_matches", updates))
    figures["untagged_calls"] = untagged(ledger, [*one, *two, *private])
    if private:
        turns = [turn for table in private for turn in half_turns(ledger, table)]
        figures.update(call_figures("private", turns))
        figures["private_match_finished"] = finished(private, ledger)
    return figures


def untagged(ledger: Ledger, tables: Iterable[Table]) -> int:
    """Calls in the tables' chats that carried no update number (should be none: they are
    then counted for the latest update in their chat)."""
    chats = {table.chat for table in tables}
    return sum(1 for call in ledger.calls if call.cause is None and call.chat in chats)


def half_turn_lines(ledger: Ledger, tables: Iterable[Table]) -> list[str]:
    """One line per half-turn: who, the updates, the chat's calls and the private ones."""
    lines = []
    for table in tables:
        for number, turn in enumerate(half_turns(ledger, table), start=1):
            updates = "+".join(update.kind for update in turn.updates)
            calls = ", ".join(
                call.kind + ("" if call.ok else " (no-op)") for call in turn.limited()
            )
            notes = len(turn.notifications())
            lines.append(
                f"{table.label} #{number} {turn.seat.name} {updates} ({turn.roll} roll): "
                f"{len(turn.limited())} [{calls}]" + (f" +{notes} private" if notes else "")
            )
    return lines


def summary_lines(figures: dict[str, Any]) -> list[str]:
    """A short human summary of :func:`scenario_figures`."""
    lines = []
    for prefix, title in (("group", "one match in a group"), ("private", "against the bot")):
        if f"{prefix}_half_turns" not in figures:
            continue
        lines.append(
            f"{title}: {figures[f'{prefix}_half_turns']} half-turns, chat-limited calls per "
            f"half-turn mean {figures[f'{prefix}_calls_per_half_turn_mean']} max "
            f"{figures[f'{prefix}_calls_per_half_turn_max']}, distribution "
            f"{figures[f'{prefix}_calls_per_half_turn_distribution']}"
        )
        lines.append(
            f"  by roll: automatic {figures[f'{prefix}_calls_per_half_turn_auto_roll_mean']}, "
            f"pressed {figures[f'{prefix}_calls_per_half_turn_pressed_roll_mean']}, cube "
            f"{figures[f'{prefix}_calls_per_half_turn_cube_mean']}"
        )
        kinds = figures[f"{prefix}_calls_per_half_turn_by_kind"]
        lines.append("  by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.items()))
        lines.append(
            "  refused or changing nothing (e.g. not modified): "
            f"{figures[f'{prefix}_calls_per_half_turn_no_op_mean']} per half-turn"
        )
    if "private_notifications_per_half_turn_mean" in figures:
        lines.append(
            "private notifications per half-turn (group match): mean "
            f"{figures['private_notifications_per_half_turn_mean']}"
        )
    for suffix, title in (("one_match", "one match"), ("two_matches", "two matches")):
        if f"click_to_board_samples_{suffix}" in figures:
            lines.append(
                f"click to board, {title}: median "
                f"{figures[f'click_to_board_ms_median_{suffix}']} ms, p99 "
                f"{figures[f'click_to_board_ms_p99_{suffix}']} ms, max "
                f"{figures[f'click_to_board_ms_max_{suffix}']} ms "
                f"({figures[f'click_to_board_samples_{suffix}']} updates)"
            )
            kinds = figures[f"click_to_board_ms_median_by_kind_{suffix}"]
            lines.append(
                "  median by update: " + ", ".join(f"{k} {v} ms" for k, v in kinds.items())
            )
    return lines


def add_arguments(parser: Any) -> None:
    """The flags both benchmarks take."""
    parser.add_argument(
        "--pace", type=float, default=PACE_S, help="seconds a player waits after their board"
    )
    parser.add_argument(
        "--half-turns",
        type=int,
        default=0,
        help="stop each match after this many half-turns (0: play whole matches)",
    )
    parser.add_argument(
        "--scenarios",
        default="one,two,private",
        help="which to run, comma-separated: one (match in a group), two (matches in one "
        "group), private (/play 1 against the bot in a private chat)",
    )
    parser.add_argument("--seed", type=int, default=17, help="the players' RNG seed")
    parser.add_argument(
        "--verbose", action="store_true", help="list every half-turn's calls on standard error"
    )
    parser.add_argument("--double-chance", type=float, default=DOUBLE_CHANCE)


def options_from(arguments: Any) -> tuple[Options, set[str]]:
    scenarios = {part.strip() for part in arguments.scenarios.split(",") if part.strip()}
    unknown = scenarios - {"one", "two", "private"}
    if unknown:
        raise SystemExit(f"unknown scenarios: {', '.join(sorted(unknown))}")
    options = Options(
        pace=arguments.pace,
        half_turns=arguments.half_turns,
        double_chance=arguments.double_chance,
        seed=arguments.seed,
        verbose=arguments.verbose,
    )
    return options, scenarios
