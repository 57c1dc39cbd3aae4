"""A tournament in words: its format, its matches' rules, its seeding, its status; what the
chat's messages, the picture's caption and the web page say alike."""

from __future__ import annotations

from bot.core.text import texts
from bot.core.text.i18n import Speech
from bot.core.tournament.settings import Kind, TournamentSettings
from gammon.match_rules import MatchRules
from gammon.tournament import CONSOLATION_MINIMUM, Bracket, Stage
from storage import TournamentRecord, TournamentSnapshot, TournamentStatus


def status_line(_: Speech, tournament: TournamentRecord) -> str:
    """Where the tournament stands, in a sentence (the chat's refusals, the web page)."""
    return {
        TournamentStatus.OPEN: _("{name} has not started yet."),
        TournamentStatus.RUNNING: _("{name} is running."),
        TournamentStatus.PAUSED: _("{name} is paused."),
    }.get(tournament.status, _("{name} is over.")).format(name=tournament.name)


def tabled(tournament: TournamentRecord) -> bool:
    kind = TournamentSettings.of(tournament).kind
    return kind in (Kind.ROUND_ROBIN, Kind.SWISS, Kind.LEAGUE)


def headline(_: Speech, tournament: TournamentRecord, players: int | None = None) -> str:
    """The name and the format; ``players``: the field once the tournament has started
    (None while registration is open)."""
    return _("{name}: {format}").format(
        name=tournament.name,
        format=describe_format(_, TournamentSettings.of(tournament), players),
    )


def field_of(snapshot: TournamentSnapshot) -> int | None:
    """How many players the tournament was started with; None while registration is open."""
    return None if snapshot.tournament.started_at is None else len(snapshot.entrants)


def describe_format(_: Speech, settings: TournamentSettings, players: int | None = None) -> str:
    """The format in words (the registration's headline, the web page). A consolation and
    a last chance are played only with a field of at least eight: while registration is open
    (``players`` None) the text says so, and once started with fewer it names neither."""
    lengths = settings.lengths
    base = {
        Kind.SINGLE: _("single elimination"),
        Kind.DOUBLE: _("double elimination"),
        Kind.ROUND_ROBIN: _("round robin in groups of up to {size}").format(
            size=settings.group_size
        ),
        Kind.SWISS: _("Swiss system, {rounds} rounds").format(rounds=settings.rounds),
        Kind.LEAGUE: _("league season, {up} up and {down} down").format(
            up=settings.promoted, down=settings.relegated
        ),
    }[settings.kind]
    parts = [base]
    sides = players is None or players >= CONSOLATION_MINIMUM
    if settings.consolation and sides:
        consolation = lengths.by_bracket.get(Bracket.CONSOLATION, lengths.default)
        if players is None:
            parts.append(
                _("consolation to {length} (with {minimum} players or more)").format(
                    length=consolation, minimum=CONSOLATION_MINIMUM
                )
            )
        else:
            parts.append(_("consolation to {length}").format(length=consolation))
    if settings.last_chance and sides:
        parts.append(
            _("last chance to {length}").format(
                length=lengths.by_bracket.get(Bracket.LAST_CHANCE, lengths.default)
            )
        )
    if settings.playoff:
        parts.append(_("playoff of the group winners"))
    for stage, label in ((Stage.SEMIFINAL, _("semifinals")), (Stage.FINAL, _("final"))):
        if stage in lengths.by_stage:
            parts.append(_("{what} to {length}").format(what=label, length=lengths.by_stage[stage]))
    if settings.match_days is not None:
        parts.append(_("{days} days a match").format(days=settings.match_days))
    if not settings.threads:
        parts.append(_("matches in this chat, not in threads"))
    return ", ".join(parts)


def rules_line(_: Speech, tournament: TournamentRecord) -> str:
    lengths = TournamentSettings.of(tournament).lengths
    rules = MatchRules.from_dict({**tournament.rules, "length": lengths.default})
    summary = texts.rules_summary(_, rules, tournament.move_time_limit)
    return summary if tournament.rated else _("{summary}, unrated").format(summary=summary)


def seeding_line(_: Speech, tournament: TournamentRecord) -> str:
    if tournament.seeding == "random":
        return _("Seeding by the dice; commitment to the seed: {commitment}").format(
            commitment=tournament.seed_commitment
        )
    return _("Seeding by rating.")
