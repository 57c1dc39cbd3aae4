"""The bot's own account plays matches too and is named at the end of one, but the bot never
pings it nor writes to it: both adapters leave it out of a message's mentions and notes."""

from __future__ import annotations

from bot.core.model import ChatRef, Message
from bot.core.posting import not_to

GROUP = ChatRef("d", "-100")
BOT = "99"


def test_the_bots_own_account_is_neither_mentioned_nor_notified() -> None:
    message = Message(GROUP, "The bot wins the match", mention=("11", BOT), notify=(BOT, "11"))
    assert not_to(message, BOT) == Message(
        GROUP, "The bot wins the match", mention=("11",), notify=("11",)
    )


def test_a_message_that_names_other_users_only_is_left_as_it_is() -> None:
    message = Message(GROUP, "Anna's turn", mention=("11",), notify=("11",))
    assert not_to(message, BOT) is message
