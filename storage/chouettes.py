"""Chouette sessions in a group chat: seats, the event log of their games, the scoreboard and
the session's fair dice, with the guarantees matches have.

As for matches, storage only persists: the command layer applies the rules
(:mod:`gammon.chouette`) to the game it loaded and hands over the actions they recorded.
Every write is one short transaction whose first statement is the conditional update
``UPDATE chouettes ... WHERE id = ? AND version = ? AND status IN (...)``: it checks and bumps
the version and takes the row's lock (PostgreSQL) or the write lock (SQLite) before anything
else is read, so a stale writer gets :class:`ConflictError` and writes nothing, on either
database and from any number of processes. A write that adds to a game without changing the
session (a seat request, a reminder's mark) begins by writing the row onto itself instead
(:func:`storage.chouette.sql.hold`): the same lock, the version unchanged. An append carries
the platform's event id; the same update handled twice gets :class:`AlreadyAppliedError`.

Everything lives in the database: after a restart :meth:`ChouetteRepository.load` replays the
current game from its events and sums the scoreboard from the finished games.

:class:`ChouetteRepository` is composed of one part per concern (:mod:`storage.chouette`): the
reads of a session, its opening and end, its seats, its games and their log, the listings and
marks the clock needs, and its dice. Callers hold the repository and call the parts' methods
by their names on it.

**Dice.** One server seed for the whole session, drawn by the caller, its SHA-256 published
when the session opens and the seed itself secret until it has ended. The client seed is
fixed once, after the commitment was published and before the first roll
(``set_client_seed``). Every dice event of the session, the seating rolls and every game's
rolls, takes the next nonce of one counter (``dice_nonce``), so the one commitment covers
every roll: ``dice_for(id, info.dice_nonce)`` is always the next roll.
The seating dice are kept with the session and each finished game's order with the game, so
that :meth:`ChouetteRepository.dice_record` lists every dice event in nonce order, with who
rolled it, for the transcript (:mod:`storage.chouette.dice`).
"""

from __future__ import annotations

from storage.acted import SeenActions
from storage.chouette.activity import ChouetteActivity
from storage.chouette.dice import ChouetteDice
from storage.chouette.games import ChouetteGames
from storage.chouette.listings import ChouetteListings
from storage.chouette.memory import CACHE_SIZE, RunningGames
from storage.chouette.reads import ChouetteReads
from storage.chouette.seats import ChouetteSeats
from storage.chouette.tables import ChouetteTables
from storage.database import Database


class ChouetteRepository:
    """Chouette sessions: seats, games, the event log, the scoreboard and the dice.

    The parts share the process's memory of the running games (:mod:`storage.chouette.memory`)
    and of when players last acted (:class:`storage.acted.SeenActions`)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        running = RunningGames()
        acted = SeenActions(2 * CACHE_SIZE)
        self.reads = ChouetteReads(self.engine, running)
        self.tables = ChouetteTables(self.reads, running)
        self.seats = ChouetteSeats(self.engine)
        self.games = ChouetteGames(self.reads, acted)
        self.listings = ChouetteListings(self.engine)
        self.activity = ChouetteActivity(self.engine, acted)
        self.dice = ChouetteDice(self.reads)
        # A session read, by its id or its chat.
        self.info = self.reads.info
        self.load = self.reads.load
        self.active_id_for_chat = self.reads.active_id_for_chat
        self.active_for_chat = self.reads.active_for_chat
        # Opened, seeded, ended.
        self.open_table = self.tables.open_table
        self.set_client_seed = self.tables.set_client_seed
        self.end = self.tables.end
        # Who sits at it.
        self.join = self.seats.join
        self.leave = self.seats.leave
        self.request = self.seats.request
        self.requests = self.seats.requests
        # Its games and their event log.
        self.start_game = self.games.start_game
        self.append = self.games.append
        self.finish_game = self.games.finish_game
        self.applied = self.games.applied
        # What the clock and the lists look for.
        self.seated_in = self.listings.seated_in
        self.timed_chouettes = self.listings.timed_chouettes
        self.unsettled_chouettes = self.listings.unsettled_chouettes
        self.unrolled_chouettes = self.listings.unrolled_chouettes
        self.latest_ended_in_chat = self.listings.latest_ended_in_chat
        self.last_action_at = self.activity.last_action_at
        self.acted_since = self.activity.acted_since
        self.reminded = self.activity.reminded
        self.claim_reminder = self.activity.claim_reminder
        # Its dice.
        self.roller = self.dice.roller
        self.dice_for = self.dice.dice_for
        self.dice_record = self.dice.dice_record
        self.reveal_seed = self.dice.reveal_seed
