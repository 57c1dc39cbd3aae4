"""Challenges: offering a match (also again, with [Rematch]), answering the offer, and starting
the match it leads to."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.core.context import Context, wants_private_notice
from bot.core.match.automatic import follow_up
from bot.core.match.client_seeds import client_seed
from bot.core.match.notices import private_notices
from bot.core.match.options import ChallengeOptions, OptionError, parse_challenge_options
from bot.core.match.presenter import Presenter
from bot.core.model import Button, Message, Public, Slot
from bot.core.people import MAX_ACCOUNT_ID, clean_name
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.text.fair_dice_text import fair_dice_line
from bot.core.text.i18n import Speech
from bot.core.text.player_text import isolated
from bot.core.tokens import Token, Verb, format_token
from gammon.flow import new_match, plan
from storage import (
    ChallengeLimitError,
    ChallengeLimits,
    ChallengeRecord,
    ChallengeRepository,
    ConflictError,
    DiceRepository,
    MatchRepository,
    NotFoundError,
    SeatTakenError,
    UserRecord,
    UserRepository,
)


class BotAccounts(Protocol):
    async def of(self, platform: str) -> UserRecord:
        """The bot's account on ``platform``."""


class ComputerMatches(Protocol):
    """Matches against the bot (:class:`bot.core.computer.computer_matches.ComputerMatches`:
    the computer plays matches, so the matches know it only by this)."""

    @property
    def bots(self) -> BotAccounts: ...

    async def offer(self, context: Context, options: ChallengeOptions) -> list[Message]:
        """Offer a match against the bot."""

    async def begin(self, context: Context, challenge_id: int) -> list[Message]:
        """Start the match a challenge to the bot offered."""


@dataclass(frozen=True)
class ChallengeService:
    challenges: ChallengeRepository
    users: UserRepository
    matches: MatchRepository
    dice: DiceRepository
    presenter: Presenter
    time: TimeSource
    server_seeds: Callable[[], bytes]  # tests pass a fixed source to replay the dice
    limits: ChallengeLimits
    computer_matches: ComputerMatches  # a challenge to the bot, and its [Start]

    async def challenge(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        words = [word for word in argument.split() if not word.startswith("@")]
        try:
            options = parse_challenge_options(
                " ".join(words), int(context.chat.settings.get("default_length", 3))
            )
        except OptionError as error:
            return context.refuse(
                _(
                    "I cannot read the option “{word}”. Example: /challenge @bob 5 nardy time=24h"
                ).format(word=isolated(error.word))
            )
        if await self.matches.active_match_id_for(context.chat.id, context.user.id) is not None:
            return context.refuse(_("You are already playing a match in this chat."))
        challenged = None
        if context.request.mentions:
            target = context.request.mentions[0]
            if not target.user_id or len(target.user_id) > MAX_ACCOUNT_ID:
                return context.refuse(_("I cannot find that player."))
            bot = await self.computer_matches.bots.of(target.platform)
            if target.user_id == bot.platform_user_id:
                return await self.computer_matches.offer(context, options)
            challenged = await self.users.upsert_user(
                target.platform, target.user_id, clean_name(target.name, target.user_id)
            )
            if challenged.id == context.user.id:
                return context.refuse(_("You cannot challenge yourself."))
        if options.level is not None:
            return context.refuse(
                _(
                    "Levels are for matches against the bot: /play {level}, or challenge the "
                    "bot itself."
                ).format(level=options.level)
            )
        return await self.offer(context, options, challenged)

    async def offer(
        self,
        context: Context,
        options: ChallengeOptions,
        challenged: UserRecord | None,
        rematch: bool = False,
    ) -> list[Message]:
        """Post the challenge with its buttons and the commitment to its dice (``rematch``:
        offered with the [Rematch] button of a match these two have just played)."""
        _ = context._
        try:
            offer = await self.challenges.create_challenge(
                chat_id=context.chat.id,
                challenger_id=context.user.id,
                challenged_id=challenged.id if challenged else None,
                rules=options.rules,
                move_time_limit=options.move_time_limit,
                server_seed=self.server_seeds(),
                now=self.time(),
                limits=self.limits,
                hints=options.hints,
                rated=not options.unrated,
                event_id=context.request.event_id or None,
            )
        except ChallengeLimitError as error:
            return context.refuse(texts.challenge_limit_refusal(_, error.scope, error.limit))
        _ = context.for_chat  # the challenge is posted for the whole chat
        mention: tuple[str, ...] = ()
        notify: tuple[str, ...] = ()
        notices: tuple[tuple[str, str], ...] = ()
        if challenged:
            invite = _rematch if rematch else _invitation
            text = invite(_, context.user, challenged, options)
            mention = (challenged.platform_user_id,)
            notify = wants_private_notice(challenged)
            notices = private_notices(
                (challenged,),
                notify,
                context.chat,
                lambda said: invite(said, context.user, challenged, options),
            )
        else:
            text = _("{challenger} offers {summary}. Anyone here may accept.").format(
                challenger=context.user.display_name, summary=_summary(_, options)
            )
        buttons = (
            Button(_("Accept"), format_token(Token(Verb.ACCEPT, "c", offer.id, 0))),
            Button(_("Decline"), format_token(Token(Verb.DECLINE, "c", offer.id, 0))),
            Button(_("Cancel"), format_token(Token(Verb.CANCEL, "c", offer.id, 0))),
        )
        text += " " + _("The offer expires in a day.")
        # The commitment is published here, before any client seed is fixed; /verify shows
        # it in full.
        text += "\n" + fair_dice_line(_, offer.dice_commitment or "")
        return [
            Message(
                context.request.chat,
                text,
                buttons,
                mention=mention,
                notify=notify,
                kind=Public(Slot(f"challenge:{offer.id}")),
                notices=notices,
            )
        ]

    async def accept(self, context: Context, _argument: str) -> list[Message]:
        offer = await self.challenges.open_challenge_for(
            context.chat.id, context.user.id, self.time()
        )
        if offer is None:
            return context.refuse(context._("There is no open challenge for you here."))
        return await self.answer(context, Verb.ACCEPT, offer.id)

    async def press(self, context: Context, token: Token) -> list[Message]:
        """[Accept], [Decline] or [Cancel] under a challenge (``token.target``); [Start]
        under an offer to the bot."""
        if token.verb == Verb.START:
            return await self.computer_matches.begin(context, token.target)
        if token.verb not in (Verb.ACCEPT, Verb.DECLINE, Verb.CANCEL):
            return context.refuse(context._("That button is out of date."))
        return await self.answer(context, token.verb, token.target)

    async def answer(self, context: Context, verb: str, challenge_id: int) -> list[Message]:
        _ = context._
        try:
            offer = await self.challenges.get_challenge(challenge_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if offer.chat_id != context.chat.id:
            return context.refuse(_("That button is out of date."))
        if offer.state != "open":
            return context.refuse(_("This challenge has already been answered."))
        if offer.expires_at <= self.time():
            await self._close_challenge(offer.id, "expired")
            return context.refuse(_("This challenge has expired."))
        is_challenger = offer.challenger_id == context.user.id
        if verb == Verb.CANCEL:
            if not is_challenger:
                return context.refuse(_("Only the challenger can cancel this challenge."))
            await self._close_challenge(offer.id, "cancelled")
            return [
                Message(
                    context.request.chat,
                    context.for_chat._("The challenge was cancelled."),
                    kind=Public(Slot(f"challenge:{offer.id}")),
                )
            ]
        if is_challenger:
            return context.refuse(_("You cannot answer your own challenge."))
        if offer.challenged_id not in (None, context.user.id):
            return context.refuse(_("This challenge is for someone else."))
        if verb == Verb.DECLINE:
            await self._close_challenge(offer.id, "declined")
            return [
                Message(
                    context.request.chat,
                    context.for_chat._("{name} declined the challenge.").format(
                        name=context.user.display_name
                    ),
                    kind=Public(Slot(f"challenge:{offer.id}")),
                )
            ]
        challenger = await self.users.get_user(offer.challenger_id)
        # Both client seeds are fixed now, after the commitment was published with the
        # challenge: a seed chosen with /seed since then, else one from this accept's event id.
        event = context.request.event_id or secrets.token_hex(8)
        seeds = (
            client_seed(challenger, offer, event),
            client_seed(context.user, offer, event),
        )
        # The seed drawn with the challenge (a fresh one for a challenge from before that).
        seed = await self.dice.for_challenge(offer.id, self.server_seeds())
        follow = follow_up((challenger, context.user))
        steps = plan(new_match(offer.rules), None, follow, seed.dice(seeds).roll)
        try:
            started = await self.matches.start_match(
                chat_id=context.chat.id,
                player_ids=(challenger.id, context.user.id),
                rules=offer.rules,
                client_seeds=seeds,
                seed=seed,
                steps=steps,
                challenge_id=offer.id,
                move_time_limit=offer.move_time_limit,
                now=self.time(),
                hints=offer.hints,
                rated=offer.rated,
            )
        except SeatTakenError as error:
            return context.refuse(await self._seat_refusal(context, offer, error))
        except ConflictError:
            return context.refuse(_("This challenge has already been answered."))
        for player in (challenger, context.user):
            if player.next_seed is not None:  # a chosen seed is used once
                await self.users.clear_next_seed(player.id)
        names = (challenger.display_name, context.user.display_name)
        _ = context.for_chat
        info = started.match.info
        start = _("Match {id}: {first} vs {second}, {summary}.").format(
            id=info.id,
            first=names[0],
            second=names[1],
            summary=match_summary(
                _,
                texts.rules_summary(_, offer.rules, offer.move_time_limit),
                hints=offer.hints,
                rated=offer.rated,
            ),
        )
        start = "\n".join([start, *self.presenter.start_lines(_, info)])
        messages = [
            Message(context.request.chat, start, kind=Public(Slot(f"challenge:{offer.id}")))
        ]
        return messages + await self.presenter.after(context, started, by_player=False)

    async def _seat_refusal(
        self, context: Context, offer: ChallengeRecord, error: SeatTakenError
    ) -> str:
        """Who already plays here: named by the refusal, or found again after a race that the
        database settled without saying who."""
        _ = context._
        seated = error.user_id
        if seated is None:
            mine = await self.matches.active_match_id_for(context.chat.id, context.user.id)
            seated = context.user.id if mine is not None else offer.challenger_id
        if seated == context.user.id:
            return _("You are already playing a match in this chat.")
        return _("The challenger is already playing a match in this chat.")

    async def _close_challenge(self, challenge_id: int, answer: str) -> None:
        with contextlib.suppress(ConflictError):
            await self.challenges.answer_challenge(challenge_id, answer)


def _summary(_: Speech, options: ChallengeOptions) -> str:
    """The match offered, as the object of a sentence: "an 11-point match of backgammon (…),
    hints allowed"."""
    return match_summary(
        _,
        texts.rules_summary(_, options.rules, options.move_time_limit, article=True),
        hints=options.hints,
        rated=not options.unrated,
    )


def match_summary(_: Speech, rules: str, *, hints: bool, rated: bool) -> str:
    """The rules' summary with what the players agreed besides: hints, no rating. The
    challenge and the match's start say the same."""
    if hints:
        rules = _("{summary}, hints allowed").format(summary=rules)
    if not rated:
        rules = _("{summary}, unrated").format(summary=rules)
    return rules


def _rematch(
    _: Speech, challenger: UserRecord, challenged: UserRecord, options: ChallengeOptions
) -> str:
    return _("{challenger} offers {challenged} a rematch: {summary}.").format(
        challenger=challenger.display_name,
        challenged=challenged.display_name,
        summary=_summary(_, options),
    )


def _invitation(
    _: Speech, challenger: UserRecord, challenged: UserRecord, options: ChallengeOptions
) -> str:
    return _("{challenger} challenges {challenged} to {summary}.").format(
        challenger=challenger.display_name,
        challenged=challenged.display_name,
        summary=_summary(_, options),
    )
