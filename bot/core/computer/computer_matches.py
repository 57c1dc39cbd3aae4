"""Matches against the bot: ``/play [length] [level] [nocube]``, a challenge to the bot's own
account, or [Rematch] under a match against it, in the chat where it is asked for.

The dice are as fair as in any match, and in the same order as a challenge's: the asking
posts an offer, a challenge to the bot stored like any other, with the commitment to a fresh
secret server seed; only the person's press of its [Start] fixes the client seeds (theirs
chosen with /seed after the offer was posted, else made of the platform's id of that press;
the bot's made of the same id) and rolls the opening dice. The bot plays without a clock and
the player has none either; hints are always allowed against the bot.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.computer.bot_accounts import BotAccounts
from bot.core.computer.opponent import ComputerOpponent
from bot.core.context import Context
from bot.core.match.automatic import follow_up
from bot.core.match.client_seeds import bot_seed, client_seed
from bot.core.match.options import ChallengeOptions, OptionError, parse_challenge_options
from bot.core.match.presenter import Presenter, followed_by
from bot.core.model import Button, Message, Public, Slot
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.text.fair_dice_text import fair_dice_line
from bot.core.text.player_text import isolated
from bot.core.tokens import Token, Verb, format_token
from engine.api import DEFAULT_LEVEL, Level
from gammon.flow import new_match, plan
from storage import (
    ChallengeLimitError,
    ChallengeLimits,
    ChallengeRecord,
    ChallengeRepository,
    ChallengeState,
    ConflictError,
    DiceRepository,
    MatchRepository,
    NotFoundError,
    SeatTakenError,
    UserRepository,
)


@dataclass(frozen=True)
class ComputerMatches:
    bots: BotAccounts
    users: UserRepository
    challenges: ChallengeRepository
    matches: MatchRepository
    dice: DiceRepository
    presenter: Presenter
    opponent: ComputerOpponent
    locks: MatchLocks
    time: TimeSource
    server_seeds: Callable[[], bytes]
    limits: ChallengeLimits

    async def play(self, context: Context, argument: str) -> list[Message]:
        """``/play [length] [level] [nocube]``: a match against the bot, offered."""
        _ = context._
        try:
            options = parse_challenge_options(
                argument, int(context.chat.settings.get("default_length", 3))
            )
        except OptionError as error:
            return context.refuse(
                _(
                    "I cannot read the option “{word}”. Example: /play 5 expert nocube (levels: "
                    "beginner, intermediate, advanced, expert, world_class)."
                ).format(word=isolated(error.word))
            )
        return await self.offer(context, options)

    async def offer(self, context: Context, options: ChallengeOptions) -> list[Message]:
        """Post the offer of a match against the bot: its terms, the commitment to its dice,
        and [Start] for the person who asked (and [Cancel])."""
        _ = context._
        if options.timed:
            return context.refuse(
                _("Matches against the bot have no time limit: leave out the time option.")
            )
        if await self.matches.active_match_id_for(context.chat.id, context.user.id) is not None:
            return context.refuse(_("You are already playing a match in this chat."))
        bot = await self.bots.of(context.request.chat.platform)
        level = (Level(options.level) if options.level else DEFAULT_LEVEL).value
        now = self.time()
        waiting = await self.challenges.open_challenge_from(
            context.chat.id, context.user.id, bot.id, now
        )
        if waiting is not None and (waiting.rules, waiting.bot_level) == (options.rules, level):
            return context.refuse(
                _("You have offered {bot} this match already: press [Start] under it.").format(
                    bot=bot.display_name
                )
            )
        try:
            offer = await self.challenges.create_challenge(
                chat_id=context.chat.id,
                challenger_id=context.user.id,
                challenged_id=bot.id,
                rules=options.rules,
                move_time_limit=None,
                server_seed=self.server_seeds(),
                now=now,
                limits=self.limits,
                hints=True,
                rated=False,
                event_id=context.request.event_id or None,
                bot_level=level,
            )
        except ChallengeLimitError as error:
            return context.refuse(texts.challenge_limit_refusal(_, error.scope, error.limit))
        _ = context.for_chat  # the offer is posted for the whole chat
        text = _(
            "{player} challenges {bot} ({level}) to {summary}. Press [Start] to roll the "
            "opening dice."
        ).format(
            player=context.user.display_name,
            bot=bot.display_name,
            level=texts.level_name(_, level),
            summary=texts.rules_summary(_, options.rules, None, article=True),
        )
        text += " " + _("The offer expires in a day.")
        # The commitment is published here, before the person's client seed is fixed (by
        # the press of [Start], or a /seed chosen from now on); /verify shows it in full.
        text += "\n" + fair_dice_line(_, offer.dice_commitment or "")
        buttons = (
            Button(_("Start"), format_token(Token(Verb.START, "c", offer.id, 0))),
            Button(_("Cancel"), format_token(Token(Verb.CANCEL, "c", offer.id, 0))),
        )
        return [
            Message(context.request.chat, text, buttons, kind=Public(Slot(f"challenge:{offer.id}")))
        ]

    async def begin(self, context: Context, challenge_id: int) -> list[Message]:
        """[Start] under an offer to the bot: the person who asked for it fixes the client
        seeds with this press, and the match starts with its opening roll."""
        _ = context._
        try:
            offer = await self.challenges.get_challenge(challenge_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if (
            offer.chat_id != context.chat.id
            or offer.bot_level is None
            or offer.challenged_id is None
        ):
            return context.refuse(_("That button is out of date."))
        if offer.challenger_id != context.user.id:
            return context.refuse(
                _("This match against the bot is someone else's: /play offers you your own.")
            )
        if offer.state is ChallengeState.ACCEPTED:
            return context.refuse(_("This match has already started."))
        if offer.state is not ChallengeState.OPEN:
            return context.refuse(_("This challenge has already been answered."))
        if offer.expires_at <= self.time():
            with contextlib.suppress(ConflictError):
                await self.challenges.answer_challenge(offer.id, ChallengeState.EXPIRED)
            return context.refuse(_("This challenge has expired."))
        return await self._start(context, offer, offer.challenged_id)

    async def _start(self, context: Context, offer: ChallengeRecord, bot_id: int) -> list[Message]:
        _ = context._
        human = context.user
        bot = await self.users.get_user(bot_id)
        level = Level(offer.bot_level or DEFAULT_LEVEL)
        # Both client seeds are fixed now, after the commitment was posted with the offer.
        event = context.request.event_id or secrets.token_hex(8)
        seeds = (client_seed(human, offer, event), bot_seed(bot.platform, event))
        seed = await self.dice.for_challenge(offer.id, self.server_seeds())
        steps = plan(new_match(offer.rules), None, follow_up((human, bot)), seed.dice(seeds).roll)
        try:
            started = await self.matches.start_match(
                chat_id=context.chat.id,
                player_ids=(human.id, bot.id),
                rules=offer.rules,
                client_seeds=seeds,
                seed=seed,
                steps=steps,
                challenge_id=offer.id,
                now=self.time(),
                bot_level=level.value,
                hints=True,
            )
        except SeatTakenError:
            return context.refuse(_("You are already playing a match in this chat."))
        except ConflictError:  # a second press at the same moment
            return context.refuse(_("This match has already started."))
        if human.next_seed is not None:  # a chosen seed is used once
            await self.users.clear_next_seed(human.id)
        info = started.match.info
        _ = context.for_chat  # the match is posted for the whole chat
        text = _(
            "Match {id}: {first} vs {bot} ({level}), {summary}. /hint shows the best plays."
        ).format(
            id=info.id,
            first=human.display_name,
            bot=bot.display_name,
            level=texts.level_name(_, level.value),
            summary=texts.rules_summary(_, offer.rules, None),
        )
        text = "\n".join([text, *self.presenter.start_lines(_, info)])
        messages = [Message(context.request.chat, text, kind=Public(Slot(f"challenge:{offer.id}")))]
        async with self.locks.hold(info.id):
            shown = await self.presenter.after(context, started, by_player=False)
            answer = await self.opponent.answer(context, started.match)
        if answer:  # the bot starts: the board after its turn is the one to see
            return messages + followed_by(shown, answer)
        return messages + shown
