"""A tournament's pairings become matches: announced once with the commitment to their dice,
started by either player's [Start].

When a pairing becomes known (the start of the tournament, or the end of the match that
decided a player: :mod:`bot.core.tournament.advance`), one process announces it: it draws the
match's server seed, marks the pairing announced with the seed's commitment (the first
process to mark it is the one that posts) and posts both players' names, mentioned, the match's
length and the commitment, with [Start]. Either player's press fixes the client seeds (a seed
chosen with /seed after the announcement, else one made of the press's event id, which the
platform generated after the commitment was published: docs/fairness.md) and starts the match,
which claims its pairing in the same transaction: a second press, from any process, is told it
has started. A player still playing another match in the chat starts this one after it.

Where the platform has threads, the announcing process opens one for the pairing
(:mod:`bot.core.tournament.pairing_threads`) and announces it there, with a line in the
tournament's chat that leads to it; the [Start] pressed there starts the match there. A press
from any chat but the pairing's thread or its tournament's is refused. Whatever a match's end
makes known (the next pairings, the tournament's end) is told in the tournament's chat, wherever
the match was played.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace

from bot.core.context import Context, clock_context_in
from bot.core.match.automatic import follow_up
from bot.core.match.challenges import match_summary
from bot.core.match.client_seeds import chosen_after
from bot.core.match.presenter import Presenter
from bot.core.model import Button, Message, Public, Slot
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.text.i18n import Speech
from bot.core.tokens import Token, Verb, format_token
from bot.core.tournament.advance import view_of
from bot.core.tournament.naming import slot_name
from bot.core.tournament.pairing_threads import PairingThreads
from bot.core.tournament.show import PAIRING, TournamentShow
from gammon.flow import new_match, plan
from gammon.match_rules import MatchRules
from gammon.tournament import Slot as PlaceInTournament
from storage import (
    Appended,
    ChatRepository,
    ConflictError,
    MatchRepository,
    SeatTakenError,
    SecretSeed,
    TournamentMatchRecord,
    TournamentRecord,
    TournamentRepository,
    TournamentSnapshot,
    TournamentStatus,
    UserRecord,
    UserRepository,
)


def pairing_slot(pairing_id: int) -> Slot:
    """The chat slot of a pairing's announcement (the match's start takes its place)."""
    return Slot(f"pairing:{pairing_id}")


class TournamentStarts:
    def __init__(
        self,
        tournaments: TournamentRepository,
        matches: MatchRepository,
        users: UserRepository,
        chats: ChatRepository,
        presenter: Presenter,
        show: TournamentShow,
        time: TimeSource,
        server_seeds: Callable[[], bytes],
        threads: PairingThreads,
    ) -> None:
        self.tournaments = tournaments
        self.matches = matches
        self.users = users
        self.chats = chats
        self.presenter = presenter
        self.show = show
        self.time = time
        self.server_seeds = server_seeds
        self.threads = threads

    async def sweep(self) -> list[Message]:
        """The clock's round: announce the pairings that no process announced (one stopped
        between writing them and posting them), in their chats' language."""
        messages: list[Message] = []
        for tournament_id, chat_id in await self.tournaments.unannounced():
            context = clock_context_in(await self.chats.get_chat(chat_id))
            messages += await self.announce(context, tournament_id)
        return messages

    async def after_match(self, context: Context, match_id: int) -> list[Message]:
        """A match has ended: if it was a tournament's, the pairings its end made known, or
        the tournament's end when it was its last match (all are decided then, so no other
        match's end tells it)."""
        tournament_id = await self.tournaments.of_match(match_id)
        return [] if tournament_id is None else await self.news(context, tournament_id)

    async def news(self, context: Context, tournament_id: int) -> list[Message]:
        """After a result (a match's end, a withdrawal's or a decision's walkovers): the
        pairings it made known, or the tournament's end when it decided the last match, told
        in the tournament's chat (the match may have been played in a thread)."""
        room = await self._room(context, tournament_id)
        announced = await self.announce(room, tournament_id)
        return announced + [
            replace(message, locale=room.chat_locale)
            for message in await self.show.finished(room, tournament_id)
        ]

    async def _room(self, context: Context, tournament_id: int) -> Context:
        """The tournament's chat, as the clock speaks in it, unless ``context`` is there."""
        tournament = await self.tournaments.get(tournament_id)
        if context.chat.id == tournament.chat_id:
            return context
        return clock_context_in(await self.chats.get_chat(tournament.chat_id))

    async def announce(self, context: Context, tournament_id: int) -> list[Message]:
        """Announce the tournament's pairings that no process has announced yet (``context``
        is the tournament's chat)."""
        snapshot = await self.tournaments.snapshot(tournament_id)
        tournament = snapshot.tournament
        if tournament.status is not TournamentStatus.RUNNING:
            return []
        places = _places(snapshot)
        messages: list[Message] = []
        for pairing in snapshot.matches:
            if pairing.announced_at is not None or pairing.decided or pairing.match_id:
                continue
            seed = SecretSeed(self.server_seeds())
            marked = await self.tournaments.announce(tournament_id, pairing.slot, seed, self.time())
            if marked is not None:
                place = places[marked.slot]
                messages += await self._announcement(context, tournament, marked, place)
        return messages

    async def _announcement(
        self,
        context: Context,
        tournament: TournamentRecord,
        pairing: TournamentMatchRecord,
        place: PlaceInTournament,
    ) -> list[Message]:
        """The announcement with [Start], in the pairing's new thread if one opens (and a
        line in the tournament's chat that leads there), else in the chat."""
        players = [await self.users.get_user(player) for player in pairing.player_ids]
        _ = context.for_chat
        names = {
            "tournament": tournament.name,
            "stage": slot_name(_, place),
            "first": players[0].display_name,
            "second": players[1].display_name,
        }
        text = _(
            "{tournament}, {stage}: {first} vs {second}, a {length}-point match. Either of you "
            "starts it with the button. Commitment to its dice: {commitment}"
        ).format(**names, length=pairing.length, commitment=pairing.dice_commitment)
        title = _("{stage} · {first} – {second}").format(**names)
        thread = await self.threads.open(context, tournament, pairing, title)
        start = format_token(Token(Verb.START, PAIRING, pairing.id, 0))
        announcement = Message(
            context.request.chat if thread is None else thread.chat,
            text,
            (Button(_("Start"), start),),
            mention=tuple(player.platform_user_id for player in players),
            locale=context.chat_locale,
            kind=Public(pairing_slot(pairing.id)),
        )
        if thread is None:
            return [announcement]
        pointer = _("{tournament}, {stage}: {first} vs {second} play in their thread: {link}")
        return [
            announcement,
            Message(
                context.request.chat,
                pointer.format(**names, link=thread.link),
                locale=context.chat_locale,
            ),
        ]

    async def press(self, context: Context, token: Token) -> list[Message]:
        """[Start] on a pairing's announcement."""
        _ = context._
        pairing = await self.tournaments.pairing_by_id(token.target)
        if token.verb != Verb.START or pairing is None:
            raise Refusal(_("That button is out of date."))
        snapshot = await self.tournaments.snapshot(pairing.tournament_id)
        tournament = snapshot.tournament
        if context.chat.id not in (tournament.chat_id, pairing.thread_chat_id):
            raise Refusal(
                _("This pairing's match starts where it was announced, not in this chat.")
            )
        if context.user.id not in pairing.player_ids:
            raise Refusal(_("Only the two players of this pairing can start its match."))
        if pairing.match_id is not None:
            raise Refusal(_("This match has already started."))
        if pairing.decided:
            raise Refusal(_("This pairing has been decided already."))
        if tournament.status is not TournamentStatus.RUNNING:
            raise Refusal(_("The tournament is paused: its matches start when it resumes."))
        seed = await self.tournaments.slot_seed(pairing.tournament_id, pairing.slot)
        if seed is None:
            raise Refusal(_("That button is out of date."))
        players = (
            await self.users.get_user(pairing.player_ids[0]),
            await self.users.get_user(pairing.player_ids[1]),
        )
        event = context.request.event_id or secrets.token_hex(8)
        seeds = (_client_seed(players[0], pairing, event), _client_seed(players[1], pairing, event))
        rules = MatchRules.from_dict({**tournament.rules, "length": pairing.length})
        steps = plan(new_match(rules), None, follow_up(players), seed.dice(seeds).roll)
        try:
            started = await self.matches.start_match(
                chat_id=context.chat.id,  # the pairing's thread, or the tournament's chat
                player_ids=pairing.player_ids,
                rules=rules,
                client_seeds=seeds,
                seed=seed,
                steps=steps,
                move_time_limit=tournament.move_time_limit,
                now=self.time(),
                rated=tournament.rated,
                tournament_slot=(pairing.tournament_id, pairing.slot),
            )
        except SeatTakenError as error:
            seated = next((p for p in players if p.id == error.user_id), None)
            name = seated.display_name if seated is not None else _("A player")
            raise Refusal(
                _("{name} is still playing another match here: start this one after it.").format(
                    name=name
                )
            ) from None
        except ConflictError:
            raise Refusal(_("This match has already started.")) from None
        for player in players:
            if player.next_seed is not None and chosen_after(
                player.next_seed_at, pairing.announced_at
            ):
                await self.users.clear_next_seed(player.id)
        place = _places(snapshot)[pairing.slot]
        return [
            Message(
                context.request.chat,
                self._start_text(context.for_chat, tournament, place, players, started),
                kind=Public(pairing_slot(pairing.id)),
            ),
            *await self.presenter.after(context, started, by_player=False),
        ]

    def _start_text(
        self,
        _: Speech,
        tournament: TournamentRecord,
        place: PlaceInTournament,
        players: tuple[UserRecord, UserRecord],
        started: Appended,
    ) -> str:
        info = started.match.info
        rules = texts.rules_summary(_, started.match.state.rules, tournament.move_time_limit)
        summary = match_summary(_, rules, hints=False, rated=tournament.rated)
        head = _("{tournament}, {stage}, match {id}: {first} vs {second}, {summary}.").format(
            tournament=tournament.name,
            stage=slot_name(_, place),
            id=info.id,
            first=players[0].display_name,
            second=players[1].display_name,
            summary=summary,
        )
        return "\n".join([head, *self.presenter.start_lines(_, info)])


def _places(snapshot: TournamentSnapshot) -> dict[str, PlaceInTournament]:
    """Each known slot's place in the structure (its bracket, round and stage), by key."""
    return {pairing.slot.key: pairing.slot for pairing in view_of(snapshot).pairings}


def _client_seed(user: UserRecord, pairing: TournamentMatchRecord, event: str) -> str:
    """As a challenge's (:func:`bot.core.match.client_seeds.client_seed`), with the pairing's
    announcement in the challenge's place."""
    if user.next_seed and chosen_after(user.next_seed_at, pairing.announced_at):
        return user.next_seed
    return f"{user.platform}:{event}"
