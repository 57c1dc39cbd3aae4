"""The chouette's table: opening it, seating by the dice and starting the first game (or the
next), showing it and its scores, and ending the session (asking first while a game is being
played) with its seed revealed and the files to check every roll. Joining and leaving are
:mod:`bot.core.chouette.joining`'s."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.chouette import texts as chouette_texts
from bot.core.chouette.check import ChouetteCheck
from bot.core.chouette.rounds import TRIES, ChouetteRounds
from bot.core.context import Context
from bot.core.events import session_ended
from bot.core.model import Button, Message, Private, Public, Slot
from bot.core.registry import CHOUETTE_END
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.text.i18n import Speech
from bot.core.tokens import Token, Verb, chouette_seat, chouette_target, format_token
from gammon.chouette import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChouetteRules,
    Consultation,
    seat_order,
)
from storage import (
    ChouetteExistsError,
    ChouetteInfo,
    ChouetteRepository,
    ChouetteStatus,
    ConflictError,
    LoadedChouette,
    NotFoundError,
    SecretSeed,
)


def rules_text(_: Speech, rules: ChouetteRules, move_time_limit: int | None = None) -> str:
    consultation = {
        Consultation.TEAM: _("the team may advise the captain"),
        Consultation.TURNED: _("members whose cube was turned may advise the captain"),
        Consultation.CAPTAIN: _("the captain decides alone"),
    }[rules.consultation]
    extras = [consultation]
    if rules.jacoby:
        extras.append(_("Jacoby rule"))
    if rules.beavers:
        extras.append(_("beavers"))
    if move_time_limit:
        extras.append(texts.move_time_text(_, move_time_limit))
    return ", ".join(extras)


class ChouetteSeating:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        rounds: ChouetteRounds,
        locks: MatchLocks,
        time: TimeSource,
        server_seeds: Callable[[], bytes],
        check: ChouetteCheck,
    ) -> None:
        self.chouettes = chouettes
        self.rounds = rounds
        self.locks = locks
        self.time = time
        self.server_seeds = server_seeds
        self.check = check

    async def open_or_show(
        self, context: Context, rules: ChouetteRules, move_time_limit: int | None = None
    ) -> list[Message]:
        _ = context.for_chat
        if context.request.chat.private:
            return context.refuse(context._("A chouette is played in a group chat."))
        for _try in range(TRIES):
            try:
                info = await self.chouettes.open_table(
                    context.chat.id,
                    context.user.id,
                    rules,
                    SecretSeed(self.server_seeds()),
                    self.time(),
                    context.request.event_id or None,
                    move_time_limit=move_time_limit,
                )
            except ChouetteExistsError:  # opened a moment ago, in another process
                loaded = await self.chouettes.active_for_chat(context.chat.id)
                if loaded is None:  # and ended since: the chat is free again
                    continue
                return await self.show(context, loaded)
            break
        else:
            return context.refuse(context._("Sorry, something went wrong. Please try again."))
        text = _(
            "{name} opens a chouette table ({rules}). Sit down with /chouette join; "
            "with three to eight players, /chouette start. Dice commitment: {commitment}"
        ).format(
            name=context.user.display_name,
            rules=rules_text(_, rules, info.move_time_limit),
            commitment=info.dice_commitment,
        )
        return [Message(context.request.chat, text)]

    async def show(self, context: Context, loaded: LoadedChouette) -> list[Message]:
        _ = context.for_chat
        info = loaded.info
        names = await self.rounds.names(context, [*info.seats, *loaded.totals])
        if info.status is ChouetteStatus.PLAYING:
            status = _("Game {number} is being played.").format(number=info.game_number)
            seats = chouette_texts.order_line(_, info.seats, names)
        else:
            status = _("Waiting for the next game: /chouette start.")
            seats = (
                chouette_texts.order_line(_, info.seats, names)
                if info.game_number > 1
                else _("Seated: {names}").format(names=", ".join(names[u] for u in info.seats))
            )
        lines = [
            _("Chouette ({rules})").format(rules=rules_text(_, info.rules, info.move_time_limit)),
            seats,
            status,
            chouette_texts.scores_line(_, loaded.totals, names),
        ]
        messages = [Message(context.request.chat, "\n".join(lines))]
        if loaded.game is not None and not loaded.game.finished:
            messages.append(await self.rounds.board(context, info, loaded.game, loaded.totals))
        return messages

    async def scores(self, context: Context, loaded: LoadedChouette) -> list[Message]:
        _ = context.for_chat
        names = await self.rounds.names(context, [*loaded.info.seats, *loaded.totals])
        text = _("Games played: {games}. {scores}").format(
            games=len(loaded.games), scores=chouette_texts.scores_line(_, loaded.totals, names)
        )
        return [Message(context.request.chat, text)]

    async def start(self, context: Context, info: ChouetteInfo) -> list[Message]:
        """Seat the players by the dice (the first game) and start a game. Under the
        chouette's lock, against the table as it is now, again whenever another process
        changed it meanwhile (fixed the client seed, seated someone): of two starts at once
        (or a start and the next game that a settlement starts in its own write) one starts
        the game, the other is told that a game is being played already; a start after an
        end is told that the session has ended."""
        async with self.locks.hold(info.id):
            for _try in range(TRIES):
                info = await self.chouettes.info(info.id)  # as it is now
                if info.status is ChouetteStatus.ENDED:
                    return await self.rounds.ended(context, info.id)
                if info.status is not ChouetteStatus.OPEN:
                    return context.refuse(context._("A game is being played already."))
                if not info.is_seated(context.user.id):
                    return context.refuse(
                        context._("You do not sit at this chouette. Join with /chouette join.")
                    )
                if not MIN_PLAYERS <= len(info.seats) <= MAX_PLAYERS:
                    return context.refuse(context._("A chouette needs at least three players."))
                try:
                    return await self._start(context, info)
                except ConflictError:  # another process changed the table meanwhile
                    continue
            return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _start(self, context: Context, info: ChouetteInfo) -> list[Message]:
        _ = context.for_chat
        notes = []
        order = list(info.seats)
        seating: list[tuple[int, tuple[int, int]]] = []
        if info.game_number == 1:  # the first game: the seed, then seats by the dice
            if info.client_seed is None:  # (fixed already if a start stopped after it)
                seed = f"{context.user.platform}:{context.request.event_id}"
                info = await self.chouettes.set_client_seed(
                    info.id, info.version, seed, now=self.time()
                )
            order, seating, line = await self._seating(context, info)
            notes.append(line)
            notes.append(_("Client seed of the dice: {seed}").format(seed=info.client_seed))
        started = await self.chouettes.start_game(
            info.id, info.version, order, seating_rolls=seating, now=self.time()
        )
        opening = await self.rounds.opened(context, started)
        return [Message(context.request.chat, "\n".join(notes)), *opening] if notes else opening

    async def _seating(
        self, context: Context, info: ChouetteInfo
    ) -> tuple[list[int], list[tuple[int, tuple[int, int]]], str]:
        """One die each (the first die of one of the session's dice events per player, in
        the order they sat down), and again for those who tie (each tie in the order its
        first player sat down, each of its players in that order), until the order is
        settled: the order, the dice events used (whose, and both dice) and a line listing
        the first round, then each tie's re-roll marked as one ("Seating dice: Ann 5, Bob 1,
        Cy 5; re-roll for a tie: Ann 2, Cy 6.")."""
        _ = context.for_chat
        names = await self.rounds.names(context, info.seats)
        rolls: dict[str, list[int]] = {str(user): [] for user in info.seats}
        groups = [list(rolls)]  # who rolls together: everyone, then each tie
        nonce = info.dice_nonce
        used: list[tuple[int, tuple[int, int]]] = []
        parts: list[str] = []
        while groups:
            for group in groups:
                for player in group:
                    event = await self.chouettes.dice_for(info.id, nonce)
                    used.append((int(player), event))
                    rolls[player].append(event[0])
                    nonce += 1
                listed = ", ".join(f"{names[int(p)]} {rolls[p][-1]}" for p in group)
                parts.append(
                    _("re-roll for a tie: {rolls}").format(rolls=listed) if parts else listed
                )
            by_dice: dict[tuple[int, ...], list[str]] = {}
            for player, dice in rolls.items():
                by_dice.setdefault(tuple(dice), []).append(player)
            groups = [tied for tied in by_dice.values() if len(tied) > 1]
        order = [int(player) for player in seat_order(rolls)]
        line = _("Seating dice: {rolls}.").format(rolls="; ".join(parts))
        return order, used, line

    async def end(self, context: Context, info: ChouetteInfo) -> list[Message]:
        """``/chouette end`` by the host or an administrator: between games the session ends
        at once; while a game is being played the caller is asked first (see
        :meth:`confirm_end`), since ending abandons that game."""
        _ = context._
        if not await context.may(CHOUETTE_END.permission, owner_id=info.host_id):
            return context.refuse(_(CHOUETTE_END.refusal))
        if info.status is ChouetteStatus.PLAYING:
            return _asked_first(context, info)
        return await self._end(context, info.id, confirmed=False)

    async def confirm_end(self, context: Context, token: Token) -> list[Message]:
        """[End the session] or [Keep playing], pressed under the question :meth:`end` asked:
        only by whoever asked (``token.version`` is their user id). [End the session] ends
        the session as it is now, whatever was played meanwhile; once it has ended, a
        second press (or another's end a moment before) changes nothing and says so."""
        _ = context._
        chouette_id, _seat = chouette_seat(token.target)
        if token.version != context.user.id:
            return context.refuse(_("Only the one who asked can answer this."))
        try:
            info = await self.chouettes.info(chouette_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if info.chat_id != context.chat.id:
            return context.refuse(_("That button is out of date."))
        if info.status is ChouetteStatus.ENDED:
            return await self.rounds.ended(context, chouette_id)
        if token.verb == Verb.KEEP_PLAYING:
            return context.refuse(_("The session goes on."))
        return await self._end(context, chouette_id, confirmed=True)

    async def _end(self, context: Context, chouette_id: int, *, confirmed: bool) -> list[Message]:
        """End the session as it is now: its scores, its seed and the files to check every
        roll. A game in play is abandoned (its events stay in the log, unscored); unless
        ``confirmed``, a game that started since the caller looked (another process's
        /chouette start a moment before) is asked about first, as :meth:`end` asks. Against
        the table as it is now, again whenever another process wrote to it meanwhile; once
        the session has ended (another process's end), :meth:`ChouetteRounds.ended`."""
        _ = context.for_chat
        async with self.locks.hold(chouette_id):
            for _try in range(TRIES):
                info = await self.chouettes.info(chouette_id)  # as it is now
                if info.status is ChouetteStatus.ENDED:
                    return await self.rounds.ended(context, chouette_id)
                if info.status is ChouetteStatus.PLAYING and not confirmed:
                    return _asked_first(context, info)
                try:
                    ended = await self.chouettes.end(
                        info.id, info.version, now=self.time(), then=session_ended(info.id)
                    )
                except ConflictError:  # another process wrote to the table meanwhile
                    continue
                break
            else:
                return context.refuse(context._("Sorry, something went wrong. Please try again."))
        loaded = await self.chouettes.load(ended.id)
        seed = await self.chouettes.reveal_seed(ended.id)
        names = await self.rounds.names(context, [*ended.seats, *loaded.totals])
        lines = [
            _("The chouette is over. Games played: {games}.").format(games=len(loaded.games)),
        ]
        if info.status is ChouetteStatus.PLAYING:
            lines.append(
                _("Game {number} was abandoned: it scores no points.").format(
                    number=info.game_number
                )
            )
        lines += [
            chouette_texts.scores_line(_, loaded.totals, names),
            *self.check.seed_lines(_, ended, seed),
        ]
        files = await self.check.files(context, ended.id, seed, context.chat_locale)
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                attachments=files,
                kind=Public(Slot(f"chouette:{ended.id}")),
            )
        ]


def _asked_first(context: Context, info: ChouetteInfo) -> list[Message]:
    """The question before ending a session whose game is being played, with [End the
    session] and [Keep playing] for the asker only (the token carries them)."""
    _ = context._
    text = _(
        "Game {number} is being played. Ending the session now abandons it: that game "
        "scores no points, and the scores stay as they were after the last finished "
        "game. End the session?"
    ).format(number=info.game_number)
    target = chouette_target(info.id)
    asker = context.user.id
    buttons = (
        Button(_("End the session"), format_token(Token(Verb.END, "h", target, asker))),
        Button(_("Keep playing"), format_token(Token(Verb.KEEP_PLAYING, "h", target, asker))),
    )
    return [
        Message(context.request.chat, text, buttons, kind=Private(context.request.actor.user_id))
    ]
