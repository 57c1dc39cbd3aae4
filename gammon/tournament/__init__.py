"""Tournaments and leagues, pure: each format is a function from its entrants (seed order),
its matches' results and who withdrew to its pairings and standings (:mod:`.model`)."""

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

__all__ = [
    "Bracket",
    "Format",
    "Lengths",
    "Pairing",
    "Result",
    "Slot",
    "Stage",
    "Standing",
    "TournamentError",
    "TournamentView",
    "walkovers",
]
