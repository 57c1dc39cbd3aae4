"""[Rematch]: the button under a match's end that offers its players the same match again.

Both players must agree, as with any challenge: the first press challenges the other player
(an ordinary challenge, with its own commitment to new dice and the usual [Accept]), and the
other player's press accepts it, as [Accept] would. The button carries only the match's
number, and the match is in the database, so it works after a restart; a repeated or late
press meets the usual refusals (an offer already made, a match already being played). Against
the bot, which always agrees, a press offers the new match as /play does: its commitment first,
then the person's [Start].
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.context import Context
from bot.core.match.challenges import ChallengeService, ComputerMatches
from bot.core.match.options import ChallengeOptions
from bot.core.model import Message, beside_record
from bot.core.runtime.time_source import TimeSource
from bot.core.tokens import Token, Verb
from storage import (
    ChallengeRecord,
    ChallengeRepository,
    MatchInfo,
    MatchRepository,
    NotFoundError,
    UserRepository,
)


@dataclass(frozen=True)
class Rematches:
    challenges: ChallengeRepository
    users: UserRepository
    matches: MatchRepository
    offers: ChallengeService
    computer_matches: ComputerMatches
    time: TimeSource

    async def press(self, context: Context, token: Token) -> list[Message]:
        """[Rematch] pressed under the end of match ``token.target``. The end stays as it is:
        no message of the answer takes its place."""
        answer = await self._answer(context, token)
        return [beside_record(message) for message in answer]

    async def _answer(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        try:
            info = await self.matches.match_info(token.target)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if info.chat_id != context.chat.id or info.status == "active":
            return context.refuse(_("That button is out of date."))
        seat = info.player_index(context.user.id)
        if seat is None:
            return context.refuse(_("This is not your match."))
        options = same_match(info)
        if info.bot_level is not None:
            return await self.computer_matches.offer(context, options)
        opponent = await self.users.get_user(info.player_ids[1 - seat])
        now = self.time()
        theirs = await self.challenges.open_challenge_from(
            context.chat.id, opponent.id, context.user.id, now
        )
        if theirs is not None and same_terms(theirs, options):
            return await self.offers.answer(context, Verb.ACCEPT, theirs.id)
        mine = await self.challenges.open_challenge_from(
            context.chat.id, context.user.id, opponent.id, now
        )
        if mine is not None and same_terms(mine, options):
            return context.refuse(
                _("You have offered {name} a rematch already: it waits for their answer.").format(
                    name=opponent.display_name
                )
            )
        if await self.matches.active_match_id_for(context.chat.id, context.user.id) is not None:
            return context.refuse(_("You are already playing a match in this chat."))
        return await self.offers.offer(context, options, opponent, rematch=True)


def same_match(info: MatchInfo) -> ChallengeOptions:
    """The options that offer ``info``'s match again (against the bot: at its level)."""
    return ChallengeOptions(
        info.rules,
        info.move_time_limit,
        hints=info.hints,
        level=info.bot_level,
        unrated=not info.rated,
    )


def same_terms(offer: ChallengeRecord, options: ChallengeOptions) -> bool:
    """Whether an open challenge offers the match ``options`` describe."""
    return (
        offer.rules == options.rules
        and offer.move_time_limit == options.move_time_limit
        and offer.hints == options.hints
        and offer.rated == (not options.unrated)
    )
