"""Challenges: offering a match, answering the offer, and starting the match it leads to."""

from __future__ import annotations

import contextlib
import secrets

from bot.core import texts
from bot.core.base import Context, wants_private_notice
from bot.core.model import Button, Message
from bot.core.options import OptionError, parse_challenge_options
from bot.core.playing import PlayCommands
from bot.core.tokens import Token, format_token
from storage import (
    ConflictError,
    NotFoundError,
    UserRecord,
)


class ChallengeCommands(PlayCommands):
    async def _challenge(self, context: Context, argument: str) -> list[Message]:
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
                ).format(word=error.word)
            )
        if await self.matches.active_match_for(context.chat.id, context.user.id):
            return context.refuse(_("You are already playing a match in this chat."))
        challenged = None
        if context.request.mentions:
            target = context.request.mentions[0]
            challenged = await self.users.upsert_user(target.platform, target.user_id, target.name)
            if challenged.id == context.user.id:
                return context.refuse(_("You cannot challenge yourself."))
        offer = await self.challenges.create_challenge(
            chat_id=context.chat.id,
            challenger_id=context.user.id,
            challenged_id=challenged.id if challenged else None,
            rules=options.rules,
            move_time_limit=options.move_time_limit,
        )
        await self.challenges.set_message_ref(offer.id, context.request.event_id or f"c{offer.id}")
        summary = texts.rules_summary(_, options.rules, options.move_time_limit)
        if challenged:
            text = _("{challenger} challenges {challenged} to a {summary}.").format(
                challenger=context.user.display_name,
                challenged=challenged.display_name,
                summary=summary,
            )
            mention: tuple[str, ...] = (challenged.platform_user_id,)
            notify = wants_private_notice(challenged)
        else:
            text = _("{challenger} offers a {summary}. Anyone here may accept.").format(
                challenger=context.user.display_name, summary=summary
            )
            mention = notify = ()
        buttons = (
            Button(_("Accept"), format_token(Token("accept", "c", offer.id, 0))),
            Button(_("Decline"), format_token(Token("decline", "c", offer.id, 0))),
            Button(_("Cancel"), format_token(Token("cancel", "c", offer.id, 0))),
        )
        text += " " + _("The offer expires in a day.")
        return [
            Message(
                context.request.chat,
                text,
                buttons,
                mention=mention,
                notify=notify,
                slot=f"challenge:{offer.id}",
            )
        ]

    async def _accept_command(self, context: Context, argument: str) -> list[Message]:
        offers = await self.challenges.open_challenges(context.chat.id)
        for offer in reversed(offers):
            if (
                offer.challenged_id in (None, context.user.id)
                and offer.challenger_id != context.user.id
            ):
                return await self._answer_challenge(context, "accept", offer.id)
        return context.refuse(context._("There is no open challenge for you here."))

    async def _answer_challenge(
        self, context: Context, verb: str, challenge_id: int
    ) -> list[Message]:
        _ = context._
        try:
            offer = await self.challenges.get_challenge(challenge_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if offer.chat_id != context.chat.id:
            return context.refuse(_("That button is out of date."))
        if offer.state != "open":
            return context.refuse(_("This challenge has already been answered."))
        if offer.expires_at <= self.clock():
            await self._close_challenge(offer.id, "expired")
            return context.refuse(_("This challenge has expired."))
        is_challenger = offer.challenger_id == context.user.id
        if verb == "cancel":
            if not is_challenger:
                return context.refuse(_("Only the challenger can cancel this challenge."))
            await self._close_challenge(offer.id, "cancelled")
            return [
                Message(
                    context.request.chat,
                    _("The challenge was cancelled."),
                    slot=f"challenge:{offer.id}",
                )
            ]
        if is_challenger:
            return context.refuse(_("You cannot answer your own challenge."))
        if offer.challenged_id not in (None, context.user.id):
            return context.refuse(_("This challenge is for someone else."))
        if verb == "decline":
            await self._close_challenge(offer.id, "declined")
            return [
                Message(
                    context.request.chat,
                    _("{name} declined the challenge.").format(name=context.user.display_name),
                    slot=f"challenge:{offer.id}",
                )
            ]
        if await self.matches.active_match_for(context.chat.id, context.user.id):
            return context.refuse(_("You are already playing a match in this chat."))
        if await self.matches.active_match_for(context.chat.id, offer.challenger_id):
            return context.refuse(_("The challenger is already playing a match in this chat."))
        try:
            await self.challenges.answer_challenge(offer.id, "accepted")
        except ConflictError:
            return context.refuse(_("This challenge has already been answered."))
        challenger = await self.users.get_user(offer.challenger_id)
        seeds = (
            await self._take_seed(challenger, offer.message_ref or f"challenge-{offer.id}"),
            await self._take_seed(context.user, context.request.event_id or secrets.token_hex(8)),
        )
        created = await self.matches.create_match(
            chat_id=context.chat.id,
            player_ids=(challenger.id, context.user.id),
            rules=offer.rules,
            server_seed=secrets.token_bytes(32),
            client_seeds=seeds,
            move_time_limit=offer.move_time_limit,
        )
        names = (challenger.display_name, context.user.display_name)
        start = _(
            "Match {id}: {first} vs {second}, {summary}. Dice commitment (SHA-256 of the secret "
            "server seed): {commitment}. Client seeds: “{seed0}” and “{seed1}”."
        ).format(
            id=created.info.id,
            first=names[0],
            second=names[1],
            summary=texts.rules_summary(_, offer.rules, offer.move_time_limit),
            commitment=created.info.dice_commitment,
            seed0=seeds[0],
            seed1=seeds[1],
        )
        messages = [Message(context.request.chat, start, slot=f"challenge:{offer.id}")]
        async with self._lock(created.info.id):
            messages += await self._drive(context, created.info.id)
        return messages

    async def _close_challenge(self, challenge_id: int, answer: str) -> None:
        with contextlib.suppress(ConflictError):
            await self.challenges.answer_challenge(challenge_id, answer)

    async def _take_seed(self, user: UserRecord, fallback: str) -> str:
        chosen = user.preferences.get("next_seed")
        if isinstance(chosen, str) and chosen:
            await self.users.set_preferences(user.id, {"next_seed": ""})
            return chosen
        return f"{user.platform}:{fallback}"
