"""Matches against the bot: ``/play [length] [level] [nocube]``, or a challenge to the bot's
own account, starts one at once in the chat where it is typed.

The dice are as fair as in any match: a fresh secret server seed whose commitment is
published with the start, the player's client seed (chosen with /seed, else made of the
platform's id for this very message) and one for the bot. The bot plays without a clock and
the player has none either; hints are always allowed against the bot.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from bot.core import texts
from bot.core.automatic import follow_up
from bot.core.bot_accounts import BotAccounts
from bot.core.context import Context
from bot.core.locks import MatchLocks
from bot.core.model import Message
from bot.core.opponent import ComputerOpponent
from bot.core.options import ChallengeOptions, OptionError, parse_challenge_options
from bot.core.player_text import isolated
from bot.core.presenter import Presenter, followed_by
from bot.core.time_source import TimeSource
from engine.api import DEFAULT_LEVEL, Level
from gammon.flow import new_match, plan
from storage import DiceRepository, MatchRepository, SeatTakenError, SecretSeed, UserRepository


@dataclass(frozen=True)
class ComputerMatches:
    bots: BotAccounts
    users: UserRepository
    matches: MatchRepository
    dice: DiceRepository
    presenter: Presenter
    opponent: ComputerOpponent
    locks: MatchLocks
    time: TimeSource
    server_seeds: Callable[[], bytes]

    async def play(self, context: Context, argument: str) -> list[Message]:
        """``/play [length] [level] [nocube]``: a match against the bot, now."""
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
        return await self.start(context, options)

    async def start(self, context: Context, options: ChallengeOptions) -> list[Message]:
        _ = context._
        if options.timed:
            return context.refuse(
                _("Matches against the bot have no time limit: leave out the time option.")
            )
        if await self.matches.active_match_id_for(context.chat.id, context.user.id) is not None:
            return context.refuse(_("You are already playing a match in this chat."))
        bot = await self.bots.of(context.request.chat.platform)
        level = Level(options.level) if options.level else DEFAULT_LEVEL
        human = context.user
        event = context.request.event_id or secrets.token_hex(8)
        seeds = (
            human.next_seed or f"{human.platform}:{event}",
            f"{bot.platform}:bot:{event}",
        )
        seed = SecretSeed(self.server_seeds())
        steps = plan(new_match(options.rules), None, follow_up((human, bot)), seed.dice(seeds).roll)
        try:
            started = await self.matches.start_match(
                chat_id=context.chat.id,
                player_ids=(human.id, bot.id),
                rules=options.rules,
                client_seeds=seeds,
                seed=seed,
                steps=steps,
                now=self.time(),
                bot_level=level.value,
                hints=True,
            )
        except SeatTakenError:
            return context.refuse(_("You are already playing a match in this chat."))
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
            summary=texts.rules_summary(_, options.rules, None),
        )
        text = "\n".join([text, *self.presenter.start_lines(_, info)])
        messages = [Message(context.request.chat, text)]
        async with self.locks.hold(info.id):
            shown = await self.presenter.after(context, started, by_player=False)
            answer = await self.opponent.answer(context, started.match)
        if answer:  # the bot starts: the board after its turn is the one to see
            return messages + followed_by(shown, answer)
        return messages + shown
