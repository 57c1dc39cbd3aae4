"""What the chat reads about a tournament: its registration, its state (the pairings in play,
waiting and decided, and the table), its start with the seeds, and its changes."""

from __future__ import annotations

from functools import partial
from typing import Final

from bot.core.context import Context
from bot.core.documents.web_links import WebLinks
from bot.core.model import Button, Message, Public, Slot
from bot.core.runtime.painter import Painter
from bot.core.text.i18n import Speech
from bot.core.tokens import Token, Verb, format_token
from bot.core.tournament.advance import view_and_results, view_of
from bot.core.tournament.describe import (
    field_of,
    headline,
    rules_line,
    seeding_line,
    status_line,
    tabled,
)
from bot.core.tournament.naming import slot_name
from bot.core.tournament.picture import PictureOf
from bot.core.tournament.settings import TournamentSettings
from rendering import draw_tournament
from storage import (
    TournamentRecord,
    TournamentRepository,
    TournamentSnapshot,
    TournamentStatus,
    UserRecord,
    UserRepository,
)

TOURNAMENT: Final = "t"  # the token kind of a tournament's [Join] and [Leave]
PAIRING: Final = "p"  # the token kind of a pairing's [Start]
MAX_START_BUTTONS: Final = 10
NAME_IN_LABEL: Final = 20
MAX_LINES = 40  # of pairings or table lines shown in a chat; the web page shows everything


def registration_slot(tournament_id: int) -> Slot:
    """The chat slot of a tournament's registration message."""
    return Slot(f"tournament:{tournament_id}")


class TournamentShow:
    """``links``: the web pages' addresses; ``painter``: draws the picture of the brackets and
    tables; None: pictures are off (the console, most tests)."""

    def __init__(
        self,
        tournaments: TournamentRepository,
        users: UserRepository,
        links: WebLinks,
        painter: Painter | None = None,
    ) -> None:
        self.tournaments = tournaments
        self.users = users
        self.links = links
        self.painter = painter

    async def registration(self, context: Context, tournament: TournamentRecord) -> str:
        snapshot = await self.tournaments.snapshot(tournament.id)
        _ = context.for_chat
        players = await self._names(snapshot.seeded)
        lines = [
            headline(_, tournament, field_of(snapshot)),
            _("Matches: {rules}.").format(rules=rules_line(_, tournament)),
            seeding_line(_, tournament),
        ]
        if tournament.status is TournamentStatus.OPEN:
            lines.append(
                _("Registered ({count}): {names}").format(
                    count=len(players), names=", ".join(players.values()) or "—"
                )
            )
            lines.append(
                _(
                    "Join with the button or /tournament join; the organiser starts it with "
                    "/tournament start."
                )
            )
            if tournament.closes_at is not None:
                lines.append(
                    _("Registration closes at {moment} UTC; the tournament then starts.").format(
                        moment=tournament.closes_at.strftime("%Y-%m-%d %H:%M")
                    )
                )
        else:
            lines.append(_("Registration is closed: {count} players.").format(count=len(players)))
        return "\n".join([*lines, *self._page_line(_, tournament)])

    async def registration_message(self, context: Context, tournament: TournamentRecord) -> Message:
        """The registration message, with its buttons while registration is open."""
        text = await self.registration(context, tournament)
        _ = context.for_chat
        buttons: tuple[Button, ...] = ()
        if tournament.status is TournamentStatus.OPEN:
            buttons = (
                Button(_("Join"), format_token(Token(Verb.JOIN, TOURNAMENT, tournament.id, 0))),
                Button(_("Leave"), format_token(Token(Verb.LEAVE, TOURNAMENT, tournament.id, 0))),
            )
        return Message(
            context.request.chat, text, buttons, kind=Public(registration_slot(tournament.id))
        )

    async def tournament(self, context: Context, tournament: TournamentRecord) -> list[Message]:
        """/tournament: the registration, or the pairings and the table."""
        if tournament.status is TournamentStatus.OPEN:
            text = await self.registration(context, tournament)
            return [Message(context.request.chat, text)]
        snapshot = await self.tournaments.snapshot(tournament.id)
        text = await self._state(context, snapshot)
        image = await self._picture(context, snapshot)
        buttons = await self._start_buttons(context, snapshot)
        return [Message(context.request.chat, text, buttons, image=image)]

    async def _start_buttons(
        self, context: Context, snapshot: TournamentSnapshot
    ) -> tuple[Button, ...]:
        """[Start] again for the pairings announced and not begun, should an announcement have
        been lost (its process stopped between marking it and posting it)."""
        if snapshot.tournament.status is not TournamentStatus.RUNNING:
            return ()
        waiting = [
            pairing
            for pairing in snapshot.matches
            if pairing.announced_at is not None and pairing.match_id is None and not pairing.decided
        ][:MAX_START_BUTTONS]
        names = await self._names(sorted({p for pairing in waiting for p in pairing.player_ids}))
        _ = context.for_chat
        return tuple(
            Button(
                _("Start: {first} – {second}").format(
                    first=_short(names[pairing.player_ids[0]]),
                    second=_short(names[pairing.player_ids[1]]),
                ),
                format_token(Token(Verb.START, PAIRING, pairing.id, 0)),
            )
            for pairing in waiting
        )

    async def _picture(self, context: Context, snapshot: TournamentSnapshot) -> bytes | None:
        """The brackets and tables drawn in the painter's process (the text is its caption)."""
        if self.painter is None:
            return None
        tournament = snapshot.tournament
        view, results = view_and_results(snapshot)
        seeded = snapshot.seeded
        names = await self._names(sorted(seeded))
        picture = PictureOf(context.for_chat, seeded, names, results).picture(
            tournament.name, TournamentSettings.of(tournament).kind, view
        )
        return await self.painter.paint(partial(draw_tournament, picture))

    async def started(self, context: Context, tournament: TournamentRecord) -> list[Message]:
        """The start: the seeds and, when they came from the dice, the revealed seed."""
        snapshot = await self.tournaments.snapshot(tournament.id)
        _ = context.for_chat
        names = await self._names(snapshot.seeded)
        seeds = ", ".join(f"{place}. {names[p]}" for place, p in enumerate(snapshot.seeded, 1))
        lines = [_("{name} has begun. Seeds: {seeds}").format(name=tournament.name, seeds=seeds)]
        if tournament.seeding == "random":
            seed = (await self.tournaments.server_seed(tournament.id)).hex()
            lines.append(
                _(
                    "The seeds come from the dice: the server seed was {seed} (its SHA-256 is the "
                    "commitment posted when the tournament opened)."
                ).format(seed=seed)
            )
        return [Message(context.request.chat, "\n".join(lines))]

    async def finished(self, context: Context, tournament_id: int) -> list[Message]:
        """The end, told in the chat by the process whose result ended the tournament: its
        results, its table for the formats that have one, and its winner (/tournament shows
        the same when asked; this says it to everyone once, when it happens)."""
        snapshot = await self.tournaments.snapshot(tournament_id)
        tournament = snapshot.tournament
        if tournament.status is not TournamentStatus.FINISHED:
            return []
        over = context.for_chat._("{name} is over.").format(name=tournament.name)
        state = await self._state(context, snapshot)
        return [Message(context.request.chat, f"{over}\n{state}")]

    def status_refusal(self, context: Context, tournament: TournamentRecord) -> str:
        return status_line(context._, tournament)

    def status_change(
        self, context: Context, tournament: TournamentRecord, to: TournamentStatus
    ) -> Message:
        _ = context.for_chat
        text = {
            TournamentStatus.PAUSED: _(
                "{name} is paused: matches in play go on, no new one starts."
            ),
            TournamentStatus.RUNNING: _("{name} goes on."),
        }.get(to, _("{name} was cancelled.")).format(name=tournament.name)
        return Message(context.request.chat, text)

    def withdrawn(
        self, context: Context, tournament: TournamentRecord, player: UserRecord
    ) -> Message:
        text = context.for_chat._(
            "{player} has withdrawn from {name}: their matches still to play are walkovers."
        ).format(player=player.display_name, name=tournament.name)
        return Message(context.request.chat, text)

    def decided(
        self, context: Context, tournament: TournamentRecord, winner: UserRecord
    ) -> Message:
        text = context.for_chat._(
            "The organiser gives {winner} the match that never began before its deadline ({name})."
        ).format(winner=winner.display_name, name=tournament.name)
        return Message(context.request.chat, text)

    def replaced(
        self,
        context: Context,
        tournament: TournamentRecord,
        leaving: UserRecord,
        coming: UserRecord,
    ) -> Message:
        text = context.for_chat._("{coming} takes {leaving}'s place in {name}.").format(
            coming=coming.display_name, leaving=leaving.display_name, name=tournament.name
        )
        return Message(context.request.chat, text)

    async def _state(self, context: Context, snapshot: TournamentSnapshot) -> str:
        _ = context.for_chat
        tournament = snapshot.tournament
        view = view_of(snapshot)
        players = {entrant.user_id for entrant in snapshot.entrants}
        names = await self._names(sorted(players))
        by_slot = {match.slot: match for match in snapshot.matches}
        lines = [headline(_, tournament, field_of(snapshot))]
        if tournament.status is TournamentStatus.PAUSED:
            lines.append(_("Paused: matches in play go on, no new one starts."))
        elif tournament.status is TournamentStatus.CANCELLED:
            lines.append(_("Cancelled."))
        shown = 0
        for pairing in view.pairings:
            first, second = pairing.players
            if pairing.bye or first is None or second is None or shown >= MAX_LINES:
                continue
            played = by_slot.get(pairing.slot.key)
            where = slot_name(_, pairing.slot)
            if played is not None and played.winner_id is not None:
                outcome = _("{winner} beat {loser} {points}–{conceded}").format(
                    winner=names[played.winner_id],
                    loser=names[played.loser_id or 0],
                    points=played.winner_points or 0,
                    conceded=played.loser_points or 0,
                )
                if played.walkover:
                    outcome = _("{winner} by walkover").format(winner=names[played.winner_id])
            elif played is not None and played.match_id is not None:
                outcome = _("{first} vs {second}: in play, match {id}").format(
                    first=names[first], second=names[second], id=played.match_id
                )
            else:
                outcome = _("{first} vs {second}").format(first=names[first], second=names[second])
            lines.append(f"{where}: {outcome}")
            shown += 1
        if tabled(tournament):
            lines.append(_("Table:"))
            for standing in view.standings[:MAX_LINES]:
                lines.append(
                    _("{rank}. {name}: {points} points, {won}–{lost}, {difference:+d}").format(
                        rank=standing.rank,
                        name=names[standing.player],
                        points=standing.points,
                        won=standing.won,
                        lost=standing.lost,
                        difference=standing.points_difference,
                    )
                )
        if view.winner is not None:
            lines.append(_("Winner: {name}").format(name=names[view.winner]))
        return "\n".join([*lines, *self._page_line(_, tournament)])

    def _page_line(self, _: Speech, tournament: TournamentRecord) -> list[str]:
        """Where the tournament's web page is, when the bot serves web pages."""
        if not self.links.enabled:
            return []
        return [_("Full bracket: {url}").format(url=self.links.tournament(tournament.slug))]

    async def _names(self, players: list[int]) -> dict[int, str]:
        found = await self.users.users_by_id(players)
        return {player: found[player].display_name for player in players}


def _short(name: str) -> str:
    """A name short enough for a button's label."""
    return name if len(name) <= NAME_IN_LABEL else name[: NAME_IN_LABEL - 1] + "…"
