"""The command layer's messages as Bot API calls: photos with captions, inline keyboards,
slots, mentions, private notifications.

What to do with each message is the core's posting plan (:mod:`bot.core.posting`): Telegram
has no ephemeral messages, so a message meant for one user (a ``Private`` kind) goes where that
user caused it: the toast of a button press (answered by the adapter before
:meth:`Poster.post_all`), an edit of the pressed panel (``/settings``), the private chat when
the request came from there (deep links), or else a reply to the user's own message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from telegram import Bot, ForceReply
from telegram.constants import MessageLimit

from bot.core.match.folding import fold_notes
from bot.core.model import Message
from bot.core.ports import ChatFrontEnd
from bot.core.posting import TELEGRAM, Edit, Origin, Plan, Posting, not_to
from bot.telegram_app.bot_calls import BotCalls, Markup, media_of
from bot.telegram_app.composing import MAX_BODY, Composer, clip
from bot.telegram_app.markup import html_text
from bot.telegram_app.notes import PrivateNotes

logger = logging.getLogger(__name__)

PLATFORM = TELEGRAM.name


class Poster:
    """Carries out the core's posting plans (:mod:`bot.core.posting`) with Bot API calls:
    asks the core once before a batch and once after, and posts each message as its plan
    says through the calls (:mod:`.bot_calls`), the composer (:mod:`.composing`) and the
    private notes (:mod:`.notes`)."""

    def __init__(
        self,
        bot: Bot,
        core: ChatFrontEnd,
        bot_username: Callable[[], str],
        mini_app: str | None = None,
    ) -> None:
        self.bot = bot
        self.core = core
        self.bot_username = bot_username
        self.calls = BotCalls(bot)
        self.composer = Composer(bot_username, mini_app)
        self.notes = PrivateNotes(self.calls, bot_username)

    async def post_all(self, messages: Sequence[Message], origin: Origin | None = None) -> None:
        """Post every message in order, the sentences before a picture in its caption; one
        failing message does not stop the others. The core is asked once before (what the
        plans need) and once after (what was posted), never in between."""
        folded = [
            self._not_to_me(message)
            for message in fold_notes(messages, MessageLimit.CAPTION_LENGTH - 200, MAX_BODY)
        ]
        posting = await self.core.delivery.prepare(TELEGRAM, folded, origin)
        for message in folded:
            try:
                await self.post(message, posting)
            except Exception:
                logger.exception(
                    "posting a message to chat %s (slot %s) failed",
                    message.chat.chat_id,
                    message.slot,
                )
        pressed = posting.pressed_to_strip()
        if pressed is not None and posting.origin.chat_id is not None:
            await self.calls.strip(posting.origin.chat_id, int(pressed))
        for chat_id, message_id in await self.core.delivery.posted(posting):
            await self.calls.strip(chat_id, int(message_id))

    async def post(self, message: Message, posting: Posting) -> None:
        """One message, as its plan says: the first edit that works, else a new message."""
        plan = posting.plan(message)
        for edit in plan.edits:
            if await self._apply(edit, plan, message, posting):
                await self._shown(message, plan, edit, edit.message_id, posting)
                return
        markup: Markup = self.composer.keyboard(message, plan.group)
        if markup is None and plan.invite_reply:
            # A board that waits for a typed move: invite a reply from the player it mentions,
            # which reaches the bot even under the group privacy mode.
            markup = ForceReply(selective=True, input_field_placeholder="13/10* 6/5")
        text = self.composer.text(message, plan.group, posting)
        reply_to = None if plan.reply_to is None else int(plan.reply_to)
        sent = await self.calls.send(plan.chat_id, text, media_of(message), markup, reply_to)
        if sent is None:
            return
        await self._shown(message, plan, None, str(sent.message_id), posting)
        for user_id in plan.notify:
            body = html_text(clip(message.notice_for(user_id), MAX_BODY))
            await self.notes.notify(message, user_id, body, posting)

    async def _apply(self, edit: Edit, plan: Plan, message: Message, posting: Posting) -> bool:
        """Try one edit of the plan; False when Telegram refuses it."""
        if edit.for_its_reader:
            text = html_text(clip(message.text, MAX_BODY))
            keyboard = self.composer.keyboard(message, False)
        else:
            text = self.composer.text(message, plan.group, posting)
            keyboard = self.composer.keyboard(message, plan.group)
        media = None if edit.text_only else media_of(message)
        return await self.calls.edit(edit.chat_id, int(edit.message_id), text, media, keyboard)

    async def _shown(
        self, message: Message, plan: Plan, edit: Edit | None, message_id: str, posting: Posting
    ) -> None:
        """The message is there: strip the one it replaced in its slot, then send its files."""
        previous = posting.shown(message, plan, edit, message_id)
        if previous is not None:
            await self.calls.strip(plan.chat_id, int(previous))
        if edit is None or not edit.for_its_reader:
            reply_to = None if plan.reply_to is None else int(plan.reply_to)
            await self.calls.attachments(plan.chat_id, message, reply_to)

    def _not_to_me(self, message: Message) -> Message:
        """The message without the bot's own account among those to mention or notify: a
        bot cannot write to itself."""
        try:
            own = str(self.bot.id)
        except RuntimeError:  # not initialised (no getMe yet): nothing to tell apart
            return message
        return not_to(message, own)
