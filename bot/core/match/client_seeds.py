"""The players' client seeds of a match that a challenge starts (a challenge between people, or
a person's offer to the bot): fixed when it is accepted or started, after the challenge and
its commitment to the server seed were posted (docs/fairness.md)."""

from __future__ import annotations

from datetime import datetime

from storage import ChallengeRecord, UserRecord


def client_seed(user: UserRecord, offer: ChallengeRecord, event: str) -> str:
    """The user's client seed for a match from ``offer``: the one they chose with /seed after
    the challenge (and its commitment) was posted; a seed chosen before that is not used,
    since the server seed was drawn knowing it. Otherwise one made of ``event``, the id of
    the accept (or of the press of [Start] against the bot), which the platform generated
    after the commitment was published."""
    if user.next_seed and chosen_after(user.next_seed_at, offer.created_at):
        return user.next_seed
    return f"{user.platform}:{event}"


def bot_seed(platform: str, event: str) -> str:
    """The bot's own client seed, made of the same event as the person's default one."""
    return f"{platform}:bot:{event}"


def chosen_after(moment: datetime | None, published: datetime | None) -> bool:
    return moment is not None and published is not None and moment >= published
