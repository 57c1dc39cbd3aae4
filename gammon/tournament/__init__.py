"""Tournaments and leagues, pure: each format is a function from its entrants (seed order),
its matches' results and who withdrew to its pairings and standings (:mod:`.model`)."""

from gammon.tournament.double import DoubleElimination
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
from gammon.tournament.single import SingleElimination

__all__ = [
    "Bracket",
    "DoubleElimination",
    "Format",
    "Lengths",
    "Pairing",
    "Result",
    "SingleElimination",
    "Slot",
    "Stage",
    "Standing",
    "TournamentError",
    "TournamentView",
    "walkovers",
]
