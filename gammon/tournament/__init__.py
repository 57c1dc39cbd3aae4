"""Tournaments and leagues, pure: each format is a function from its entrants (seed order),
its matches' results and who withdrew to its pairings and standings (:mod:`.model`)."""

from gammon.tournament.double import DoubleElimination
from gammon.tournament.league import League, next_divisions
from gammon.tournament.model import (
    Bracket,
    Format,
    Lengths,
    Pairing,
    Result,
    Slot,
    Stage,
    Standing,
    TournamentError,
    TournamentView,
    walkovers,
)
from gammon.tournament.round_robin import RoundRobin
from gammon.tournament.single import CONSOLATION_MINIMUM, SingleElimination
from gammon.tournament.swiss import Swiss

__all__ = [
    "CONSOLATION_MINIMUM",
    "Bracket",
    "DoubleElimination",
    "Format",
    "League",
    "Lengths",
    "Pairing",
    "Result",
    "RoundRobin",
    "SingleElimination",
    "Slot",
    "Stage",
    "Standing",
    "Swiss",
    "TournamentError",
    "TournamentView",
    "next_divisions",
    "walkovers",
]
