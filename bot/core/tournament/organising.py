"""Who opens and runs a chat's tournaments and leagues: its administrators, the organisers its
defaults name (``/defaults organisers=…``: users, or a role's members), and for a tournament
under way the organiser who opened it. A refusal says who may, naming the chat's organisers."""

from __future__ import annotations

from bot.core.context import Context
from bot.core.organisers import organiser_names
from bot.core.permissions import Permission
from bot.core.refusal import Refusal
from storage import TournamentRecord, UserRepository


async def may_open(context: Context, users: UserRepository) -> None:
    """Refuses whoever may not open a tournament (or a league) in the chat."""
    if await context.may(Permission.ORGANISER):
        return
    names = await organiser_names(context, users)
    if not names:
        raise Refusal(context._("Only an administrator of the chat opens a tournament."))
    raise Refusal(
        context._(
            "Only an administrator or an organiser named in this chat's defaults opens a "
            "tournament. The organisers: {organisers}."
        ).format(organisers=names)
    )


async def may_run(context: Context, users: UserRepository, tournament: TournamentRecord) -> None:
    """Refuses whoever may not run ``tournament`` (start, pause, resume, cancel, withdraw or
    replace a player, decide a match, open a league's next season)."""
    if await context.may(Permission.ORGANISER, tournament.organiser_id):
        return
    names = await organiser_names(context, users)
    if not names:
        raise Refusal(
            context._("Only the organiser who opened the tournament or an administrator may.")
        )
    raise Refusal(
        context._(
            "Only the organiser who opened the tournament, an administrator or an organiser "
            "named in this chat's defaults may. The organisers: {organisers}."
        ).format(organisers=names)
    )
