"""Fewer messages for the same words: the sentences an answer says before a picture (a roll
that could not be played, an automatic play, a game's result, an opening roll) go into that
picture's caption, and sentences without a picture after them into one message. Chat platforms
limit how many messages a bot may send into one chat (Telegram about 20 a minute in a group,
Discord 5 in 5 seconds in a channel), so every message saved is pace gained."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.core.model import BesideRecord, Message, Public


def is_note(message: Message) -> bool:
    """A sentence for everyone in the chat, with nothing else: no picture, buttons, files,
    slot or mention."""
    return (
        _takes_notes(message)
        and not (message.buttons or message.attachments or message.mention or message.notify)
        and message.image is None
        and message.animation is None
        and message.board is None
        and message.slot is None
    )


def _takes_notes(message: Message) -> bool:
    """A public message that can carry sentences in front of its own: a picture's caption (a
    board, a replay), or a text (a board drawn without pictures)."""
    return isinstance(message.kind, Public | BesideRecord)


def fold_notes(messages: Sequence[Message], caption_limit: int, text_limit: int) -> list[Message]:
    """The messages with each run of notes put in front of the public message that follows it
    in the same chat (within ``caption_limit`` characters for a picture's caption,
    ``text_limit`` for a text), or else joined into one message. The order of everything
    else is kept.

    >>> from bot.core.model import ChatRef
    >>> chat = ChatRef("t", "1")
    >>> answer = [Message(chat, "a"), Message(chat, "b"), Message(chat, "board", image=b"png")]
    >>> folded = fold_notes(answer, 1024, 4096)
    >>> [(message.text, message.image) for message in folded]
    [('a\\nb\\nboard', b'png')]
    """
    folded: list[Message] = []
    notes: list[Message] = []

    def flush() -> None:
        joined: list[Message] = []
        for note in notes:
            last = joined[-1] if joined else None
            if (
                last is not None
                and last.chat == note.chat
                and len(last.text) + 1 + len(note.text) <= text_limit
            ):
                joined[-1] = replace(last, text=f"{last.text}\n{note.text}")
            else:
                joined.append(note)
        folded.extend(joined)
        notes.clear()

    for message in messages:
        if is_note(message):
            if notes and notes[-1].chat != message.chat:
                flush()
            notes.append(message)
            continue
        if notes and _takes_notes(message) and notes[-1].chat == message.chat:
            text = "\n".join([*(note.text for note in notes), message.text])
            pictured = message.image is not None or message.animation is not None
            if len(text) <= (caption_limit if pictured else text_limit):
                notes.clear()
                folded.append(replace(message, text=text))
                continue
        flush()
        folded.append(message)
    flush()
    return folded
