"""What a tournament's web page (``/t/<slug>``) shows, read as plain data
(:class:`~bot.pages.tournament_data.TournamentPageData`): the pairings grouped by bracket (or
group) and round, each with its players, result, walkover or bye and a link to its match's
page; the tables of round robin, Swiss and league; the winner. Derived as the chat's
``/tournament`` derives it (:func:`bot.core.tournament.advance.view_of`), so both show the same
tournament. The web server reaches it through :class:`~bot.core.info.page_reads.MatchPageReads`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.core.text.i18n import Speech
from bot.core.text.player_text import isolated
from bot.core.tournament.advance import view_of
from bot.core.tournament.describe import describe_format, field_of, status_line
from bot.core.tournament.naming import group_name, part_name, slot_name
from bot.core.tournament.settings import Kind, TournamentSettings
from bot.pages.tournament_data import (
    BracketMatch,
    BracketPart,
    BracketRound,
    StandingsTable,
    TableRow,
    TournamentPageData,
)
from gammon.tournament import Bracket, Pairing, Slot, TournamentView
from storage import (
    TournamentMatchRecord,
    TournamentRepository,
    TournamentSnapshot,
    UserRepository,
)

_TABLED = (Kind.ROUND_ROBIN, Kind.SWISS, Kind.LEAGUE)
_UNKNOWN = "?"  # a player whose record is gone: the page still shows the rest


class TournamentPageReads:
    """The tournament page's read model: :meth:`page` by the tournament's secret address."""

    def __init__(self, tournaments: TournamentRepository, users: UserRepository) -> None:
        self._tournaments = tournaments
        self._users = users

    async def page(
        self, slug: str, _: Speech, match_url: Callable[[str], str]
    ) -> TournamentPageData | None:
        """The page of the tournament at ``slug`` in ``_``'s language, each started match
        linked at ``match_url(its slug)``; None for an unknown address."""
        if not slug or len(slug) > 32:
            return None
        found = await self._tournaments.by_slug(slug)
        if found is None:
            return None
        snapshot = await self._tournaments.snapshot(found.id)
        tournament = snapshot.tournament
        names = await self._names(snapshot)
        shown = dataclasses.replace(tournament, name=isolated(tournament.name))
        settings = TournamentSettings.of(tournament)
        data = TournamentPageData(
            name=tournament.name,
            description=describe_format(_, settings, field_of(snapshot)),
            status=status_line(_, shown),
            winner="",
            registered="",
            parts=(),
            tables=(),
        )
        if tournament.started_at is None:  # registration: nobody is paired yet
            players = ", ".join(isolated(names.get(p, _UNKNOWN)) for p in snapshot.seeded) or "—"
            registered = _("Registered ({count}): {names}").format(
                count=len(snapshot.seeded), names=players
            )
            return dataclasses.replace(data, registered=registered)
        view = view_of(snapshot)
        slugs = await self._tournaments.match_slugs(tournament.id)
        urls = {slot: match_url(match_slug) for slot, match_slug in slugs.items()}
        winner = tournament.winner_id if tournament.winner_id is not None else view.winner
        return dataclasses.replace(
            data,
            winner="" if winner is None else _winner(_, names, winner),
            parts=_parts(_, snapshot, view, names, urls),
            tables=_tables(_, view, names, settings.kind) if settings.kind in _TABLED else (),
        )

    async def _names(self, snapshot: TournamentSnapshot) -> dict[int, str]:
        """Every entrant's and every paired player's display name."""
        players = {entrant.user_id for entrant in snapshot.entrants}
        for match in snapshot.matches:
            players.update(match.player_ids)
        found = await self._users.users_by_id(players)
        return {player: record.display_name for player, record in found.items()}


def _winner(_: Speech, names: dict[int, str], player: int) -> str:
    return _("Winner: {name}").format(name=isolated(names.get(player, _UNKNOWN)))


def _parts(
    _: Speech,
    snapshot: TournamentSnapshot,
    view: TournamentView,
    names: dict[int, str],
    urls: dict[str, str],
) -> tuple[BracketPart, ...]:
    """The pairings by part (bracket or group) and round, parts in the order they are first
    played."""
    records = {match.slot: match for match in snapshot.matches}
    parts: dict[tuple[Bracket, int], dict[int, list[BracketMatch]]] = {}
    first_slots: dict[tuple[Bracket, int], Slot] = {}
    for pairing in view.pairings:
        slot = pairing.slot
        key = (slot.bracket, slot.group)
        first_slots.setdefault(key, slot)
        box = _box(_, pairing, records.get(slot.key), names, urls.get(slot.key))
        parts.setdefault(key, {}).setdefault(slot.round, []).append(box)
    # The side brackets' own winners (consolation, last chance); the title's is the page's.
    side_winners = {b: p for b, p in view.bracket_winners if b is not Bracket.MAIN}
    return tuple(
        BracketPart(
            title=part_name(_, first_slots[key]) if len(parts) > 1 else "",
            rounds=tuple(
                BracketRound(number, tuple(boxes)) for number, boxes in sorted(rounds.items())
            ),
            winner=_winner(_, names, side_winners[key[0]]) if key[0] in side_winners else "",
        )
        for key, rounds in parts.items()
    )


def _box(
    _: Speech,
    pairing: Pairing,
    record: TournamentMatchRecord | None,
    names: dict[int, str],
    url: str | None,
) -> BracketMatch:
    players = pairing.players
    box = BracketMatch(
        key=pairing.slot.key,
        name=slot_name(_, pairing.slot),
        players=(_name(names, players[0]), _name(names, players[1])),
        bye=pairing.bye,
        url=url,
    )
    if pairing.bye:
        return dataclasses.replace(box, winner=0 if players[0] is not None else 1)
    if record is None or record.winner_id is None or record.winner_id not in players:
        return dataclasses.replace(box, in_play=record is not None and url is not None)
    side = players.index(record.winner_id)
    won, conceded = record.winner_points or 0, record.loser_points or 0
    return dataclasses.replace(
        box,
        winner=side,
        score=(won, conceded) if side == 0 else (conceded, won),
        walkover=record.walkover,
    )


def _name(names: dict[int, str], player: int | None) -> str | None:
    return None if player is None else names.get(player, _UNKNOWN)


def _tables(
    _: Speech, view: TournamentView, names: dict[int, str], kind: Kind
) -> tuple[StandingsTable, ...]:
    """The table, one for each group or division (by their number) where there are some."""
    groups: dict[int, list[TableRow]] = {}
    for standing in view.standings:
        groups.setdefault(standing.group, []).append(
            TableRow(
                rank=standing.rank,
                name=names.get(standing.player, _UNKNOWN),
                won=standing.won,
                lost=standing.lost,
                points=standing.points,
                difference=standing.points_difference,
                buchholz=standing.buchholz,
                out=standing.out,
            )
        )
    league = kind is Kind.LEAGUE
    return tuple(
        StandingsTable(
            title=group_name(_, group, league) if group else "",
            rows=tuple(rows),
            buchholz=kind is Kind.SWISS,
        )
        for group, rows in sorted(groups.items())
    )
