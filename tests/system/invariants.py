"""What must hold after several processes served one webhook, one of them killed on the way:
read from the database (inbox, matches, event logs, seats) and from the fake Bot API's log.

- every acknowledged update is in the inbox once and handled;
- every acknowledged action is in its match's event log exactly once, in the order sent;
- every match's event log replays to its stored snapshot (a finished one to its end);
- no chat or player has two active matches;
- every reminder that fell due was posted exactly once.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from gammon.actions import action_from_dict
from gammon.flow import Phase, replay
from gammon.match_rules import MatchRules
from gammon.serialization import state_to_dict
from tests.system.inbox_watch import libpq_url
from tests.system.players import Table
from tests.system.telegram import LeanBotApi, Webhooks

_MATCHES = (
    "SELECT m.id, c.platform_chat_id, m.status, m.version, m.rules, m.snapshot, "
    "m.snapshot_version, m.player0_id, m.player1_id FROM matches m JOIN chats c ON c.id = m.chat_id"
)
_EVENTS = "SELECT match_id, seq, actor_id, action FROM match_events ORDER BY match_id, seq"


def reminder_pattern(match_id: int) -> re.Pattern[str]:
    """The clock's reminder or time-up notice for the match (bot.core.scheduler)."""
    return re.compile(
        rf"(it is your turn in match {match_id}: )|(has run out of time in match {match_id}\.)"
    )


async def read(url: str, query: str) -> list[tuple[Any, ...]]:
    async with await psycopg.AsyncConnection.connect(libpq_url(url)) as connection:
        return await (await connection.execute(query)).fetchall()


async def check_inbox(url: str, webhooks: Webhooks) -> None:
    """Every acknowledged update stored (once: it is the primary key) and handled."""
    rows = await read(url, "SELECT update_id, handled_at FROM inbox_updates")
    stored = {int(update_id): handled_at for update_id, handled_at in rows}
    missing = sorted(set(webhooks.deliveries) - set(stored))
    assert not missing, f"acknowledged but not stored: {missing[:10]}"
    unhandled = sorted(u for u in webhooks.deliveries if stored[u] is None)
    assert not unhandled, f"acknowledged but never handled: {unhandled[:10]}"


async def check_matches(url: str, tables: Sequence[Table]) -> None:
    """One match per chat, its log holding each acknowledged action once, replaying to its
    snapshot; no chat with two active matches, seats only for active matches."""
    matches = await read(url, _MATCHES)
    per_chat = Counter(str(row[1]) for row in matches)
    doubled = [chat for chat, count in per_chat.items() if count > 1]
    assert not doubled, f"chats with more than one match: {doubled[:10]}"
    events: dict[int, list[tuple[int, int | None, dict[str, Any]]]] = {}
    for match_id, seq, actor_id, action in await read(url, _EVENTS):
        events.setdefault(match_id, []).append((seq, actor_id, action))
    by_chat = {str(row[1]): row for row in matches}
    for table in tables:
        row = by_chat.get(str(table.chat_id))
        assert row is not None, f"table {table.number}: no match"
        assert row[0] == table.match_id, f"table {table.number}: another match than played"
        _check_log(table, row, events.get(row[0], []))
    await _check_seats(url, matches)


def _check_log(
    table: Table, row: tuple[Any, ...], log: list[tuple[int, int | None, dict[str, Any]]]
) -> None:
    """The actions people made, in the log once each and in order (an action's first event
    names its actor; what followed by itself has none), and the log replaying to the row."""
    match_id, _chat, status, version, rules, snapshot, snapshot_version, *players = row
    where = f"table {table.number} (match {match_id})"
    assert [seq for seq, _actor, _action in log] == list(range(version)), f"{where}: gaps"
    recorded = [
        (action["type"], players.index(actor), action.get("play", ""), action["player"])
        for _seq, actor, action in log
        if actor is not None
    ]
    expected = [(s.kind, s.seat, s.play, s.seat) for s in table.actions()]
    assert recorded == expected, f"{where}: log {recorded} for acknowledged {expected}"
    state = replay(MatchRules.from_dict(rules), (action_from_dict(a) for _s, _x, a in log))
    if status == "active":
        assert snapshot_version == version, f"{where}: snapshot of version {snapshot_version}"
        replayed = json.loads(json.dumps(state_to_dict(state, with_actions=False)))
        assert replayed == snapshot, f"{where}: the log does not replay to the snapshot"
    else:
        assert status == "finished", f"{where}: {status}"
        assert state.phase is Phase.FINISHED, f"{where}: the log does not replay to the end"


async def _check_seats(url: str, matches: Iterable[tuple[Any, ...]]) -> None:
    seats = await read(url, "SELECT chat_id, user_id, match_id FROM match_seats")
    active = {row[0] for row in matches if row[2] == "active"}
    seated = Counter(match_id for _chat, _user, match_id in seats)
    assert set(seated) == active, "seats for matches that are not active, or none for active"
    assert all(count == 2 for count in seated.values()), "an active match without two seats"
    per_player = Counter((chat, player) for chat, player, _match in seats)
    assert max(per_player.values(), default=1) == 1, "a player with two active matches in a chat"


def reminders_posted(api: LeanBotApi, tables: Sequence[Table]) -> dict[int, int]:
    """Per table, how many reminders (or time-up notices) the bot posted into its chat."""
    posted: dict[int, int] = {}
    texts: dict[int, list[str]] = {}
    for call in api.of("sendMessage"):
        texts.setdefault(int(call.params["chat_id"]), []).append(str(call.params.get("text", "")))
    for table in tables:
        if table.match_id is None:
            posted[table.number] = 0
            continue
        pattern = reminder_pattern(table.match_id)
        posted[table.number] = sum(
            1 for text in texts.get(table.chat_id, []) if pattern.search(text)
        )
    return posted
