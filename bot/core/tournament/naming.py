"""What a tournament's slot is called in the chat: "the final", "semifinal 2", "group 2,
round 3", "losers' bracket, round 4", in the chat's language."""

from __future__ import annotations

from bot.core.text.i18n import Speech
from gammon.tournament import Bracket, Slot, Stage


def slot_name(_: Speech, slot: Slot) -> str:
    """The slot's name, e.g. "semifinal 2" or "consolation, round 1, match 3"."""
    staged = slot.bracket in (Bracket.MAIN, Bracket.WINNERS, Bracket.PLAYOFF)
    if staged and slot.stage is Stage.FINAL:
        plain = _("the playoff final") if slot.bracket is Bracket.PLAYOFF else _("the final")
        return plain if slot.bracket is not Bracket.WINNERS else _("the winners' final")
    if staged and slot.stage is Stage.SEMIFINAL:
        return _("semifinal {number}").format(number=slot.index)
    if staged and slot.stage is Stage.QUARTERFINAL:
        return _("quarterfinal {number}").format(number=slot.index)
    if slot.key.startswith("division-"):  # a league season's divisions are its groups
        return _("division {division}, round {round}").format(division=slot.group, round=slot.round)
    if slot.bracket is Bracket.GRAND_FINAL:
        return _("the grand final") if slot.round == 1 else _("the grand final's second match")
    where = {
        Bracket.MAIN: _("round {round}, match {number}"),
        Bracket.CONSOLATION: _("consolation, round {round}, match {number}"),
        Bracket.LAST_CHANCE: _("last chance, round {round}, match {number}"),
        Bracket.WINNERS: _("winners' bracket, round {round}, match {number}"),
        Bracket.LOSERS: _("losers' bracket, round {round}, match {number}"),
        Bracket.PLAYOFF: _("playoff, round {round}, match {number}"),
        Bracket.SWISS: _("round {round}, table {number}"),
        Bracket.GROUP: _("group {group}, round {round}"),
    }[slot.bracket]
    return where.format(round=slot.round, number=slot.index, group=slot.group)


def part_name(_: Speech, slot: Slot) -> str:
    """The heading of the part of the tournament the slot is in, e.g. "Consolation" or
    "Group 2" (the web page's sections)."""
    if slot.bracket is Bracket.GROUP:
        return group_name(_, slot.group, league=slot.key.startswith("division-"))
    return {
        Bracket.MAIN: _("Main bracket"),
        Bracket.CONSOLATION: _("Consolation"),
        Bracket.LAST_CHANCE: _("Last chance"),
        Bracket.WINNERS: _("Winners' bracket"),
        Bracket.LOSERS: _("Losers' bracket"),
        Bracket.GRAND_FINAL: _("Grand final"),
        Bracket.PLAYOFF: _("Playoff"),
    }.get(slot.bracket, "")  # Swiss has one part only: no heading


def group_name(_: Speech, group: int, league: bool) -> str:
    """ "Group 2", or a league season's "Division 2"."""
    if league:
        return _("Division {division}").format(division=group)
    return _("Group {group}").format(group=group)
