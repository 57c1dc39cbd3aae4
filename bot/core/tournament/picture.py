"""What ``/tournament``'s picture shows, in the chat's language: the brackets (main,
consolation, last chance; winners', losers', grand final; a round robin's playoff) with seeds,
names, scores and byes, and the tables (a round robin's groups, the Swiss standings with
Buchholz, a league's divisions).

It turns the derived tournament (:mod:`gammon.tournament`) into plain values for
:func:`rendering.draw_tournament`, which is drawn in the painter's process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby

from bot.core.text.i18n import Speech
from bot.core.tournament.naming import group_name, part_name
from bot.core.tournament.settings import Kind
from gammon.tournament import Bracket, Pairing, Result, Stage, Standing, TournamentView
from rendering import (
    BracketMatch,
    BracketPart,
    BracketRound,
    Entry,
    StandingsTable,
    TableLine,
    TournamentLabels,
    TournamentPicture,
)

BRACKETS = (
    Bracket.MAIN,
    Bracket.CONSOLATION,
    Bracket.LAST_CHANCE,
    Bracket.WINNERS,
    Bracket.LOSERS,
    Bracket.GRAND_FINAL,
    Bracket.PLAYOFF,
)
_STAGED = (Bracket.MAIN, Bracket.WINNERS, Bracket.PLAYOFF)


class PictureOf:
    """The picture of one tournament as it stands: ``seeded`` the players in seed order,
    ``names`` their names, ``results`` by slot (walkovers included)."""

    def __init__(
        self,
        _: Speech,
        seeded: Sequence[int],
        names: Mapping[int, str],
        results: Mapping[str, Result],
    ) -> None:
        self._ = _
        self.seed = {player: place for place, player in enumerate(seeded, start=1)}
        self.names = names
        self.results = results

    def picture(self, title: str, kind: Kind, view: TournamentView) -> TournamentPicture:
        brackets = tuple(
            part
            for bracket in BRACKETS
            if (part := self._bracket(bracket, view.pairings)) is not None
        )
        return TournamentPicture(title, brackets, self._tables(kind, view), self.labels())

    def labels(self) -> TournamentLabels:
        _ = self._
        return TournamentLabels(
            bye=_("bye"),
            player=_("Player"),
            # Column titles as short as league tables print them (a phone's width).
            played=_("P"),
            won_lost=_("W–L"),
            points=_("Pts"),
            difference=_("+/−"),
            buchholz=_("Buch."),
        )

    def _bracket(self, bracket: Bracket, pairings: Sequence[Pairing]) -> BracketPart | None:
        mine = sorted(
            (p for p in pairings if p.slot.bracket is bracket),
            key=lambda p: (p.slot.round, p.slot.index),
        )
        if not mine:
            return None
        rounds = tuple(
            self._round(bracket, list(in_round))
            for _, in_round in groupby(mine, key=lambda p: p.slot.round)
        )
        return BracketPart(part_name(self._, mine[0].slot), rounds)

    def _round(self, bracket: Bracket, pairings: list[Pairing]) -> BracketRound:
        _ = self._
        first = pairings[0].slot
        titles = {
            Stage.FINAL: _("Final"),
            Stage.SEMIFINAL: _("Semifinals"),
            Stage.QUARTERFINAL: _("Quarterfinals"),
        }
        title = (
            titles[first.stage]
            if bracket in _STAGED and first.stage in titles
            else _("Round {round}").format(round=first.round)
        )
        return BracketRound(title, tuple(self._match(pairing) for pairing in pairings))

    def _match(self, pairing: Pairing) -> BracketMatch:
        first, second = pairing.players
        if pairing.bye:
            player = first if first is not None else second
            return BracketMatch(self._entry(player, None), Entry(), bye=True)
        result = self.results.get(pairing.slot.key)
        return BracketMatch(self._entry(first, result), self._entry(second, result))

    def _entry(self, player: int | None, result: Result | None) -> Entry:
        if player is None:
            return Entry()
        name, seed = self.names.get(player, "?"), self.seed.get(player, 0)
        if result is None or player not in (result.winner, result.loser):
            return Entry(name, seed)
        if player == result.winner:
            return Entry(name, seed, str(result.winner_points), winner=True)
        return Entry(name, seed, str(result.loser_points))

    def _tables(self, kind: Kind, view: TournamentView) -> tuple[StandingsTable, ...]:
        _ = self._
        if kind is Kind.SWISS:
            return (self._table(_("Standings"), view.standings, buchholz=True),)
        if kind not in (Kind.ROUND_ROBIN, Kind.LEAGUE):
            return ()
        groups = sorted({standing.group for standing in view.standings})
        return tuple(
            self._table(
                group_name(_, group, league=kind is Kind.LEAGUE),
                [standing for standing in view.standings if standing.group == group],
            )
            for group in groups
        )

    def _table(
        self, heading: str, standings: Sequence[Standing], buchholz: bool = False
    ) -> StandingsTable:
        lines = tuple(
            TableLine(
                rank=str(standing.rank),
                name=self.names.get(standing.player, "?"),
                played=str(standing.played),
                won_lost=f"{standing.won}–{standing.lost}",
                points=str(standing.points),
                difference=f"{standing.points_difference:+d}".replace("-", "−"),
                buchholz=str(standing.buchholz),
                out=standing.out,
            )
            for standing in standings
        )
        return StandingsTable(heading, lines, buchholz)
