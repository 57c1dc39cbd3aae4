"""Matches and their event log: create, load, append with optimistic concurrency, queries.

Storage only persists: the command layer applies the rules (``gammon.flow.plan``) to the state
it loaded and hands over the steps; :meth:`MatchRepository.append` then, in one short write
transaction, checks and bumps the version (``UPDATE ... WHERE id = ? AND version = ?``),
inserts the events and stores the new snapshot. A stale writer gets :class:`ConflictError` and
writes nothing. No transaction stays open while the engine computes. The dice come from
:class:`storage.dice.DiceRepository`, the only holder of the secret seeds.

The snapshot leaves the history out (the log holds it), so an append writes as much at move
500 as at move 5. A state loaded from a snapshot therefore has no actions, and one kept in memory
only those applied since it was loaded: who needs the whole history (the transcript, the .mat
export) asks :meth:`MatchRepository.history` or :meth:`MatchRepository.with_history`.

:class:`MatchRepository` is composed of one part per concern (:mod:`storage.match`): starting a
match, loading it, its history, appends to its log, a user's active match, the listings, and
what the clock asks and marks. Callers hold the repository and call the parts' methods by their
names on it.
"""

from __future__ import annotations

from storage.acted import SeenActions
from storage.database import Database
from storage.match.active import ActiveMatches
from storage.match.activity import MatchActivity
from storage.match.appends import MatchAppends
from storage.match.history import MatchHistory
from storage.match.listings import MatchListings
from storage.match.loads import MatchLoads
from storage.match.memory import CACHE_SIZE, MatchStates
from storage.match.starts import MatchStarts


class MatchRepository:
    """Matches and their event log. Keeps the newest state of recently used matches in
    memory, keyed by version (:class:`storage.match.memory.MatchStates`, shared by the parts):
    a cached state is only ever used for the exact version it belongs to, and every write
    still checks that version in the database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self.states = MatchStates()
        acted = SeenActions(2 * CACHE_SIZE)  # when a user acted, as this process saw it
        self.history_log = MatchHistory(self.engine)
        self.loads = MatchLoads(self.history_log, self.states)
        self.listings = MatchListings(self.engine)
        self.starts = MatchStarts(self.loads, self.states)
        self.appends = MatchAppends(self.loads, self.listings, self.states, acted)
        self.active = ActiveMatches(self.loads)
        self.activity = MatchActivity(self.listings, acted)
        # Started, loaded, and its history.
        self.start_match = self.starts.start_match
        self.load_match = self.loads.load_match
        self.load_match_with_players = self.loads.load_match_with_players
        self.events = self.history_log.events
        self.history = self.history_log.history
        self.recent_events = self.history_log.recent_events
        self.with_history = self.history_log.with_history
        # Its event log written.
        self.append = self.appends.append
        self.applied = self.appends.applied
        self.listen_to_appends = self.appends.listen
        # A user's active match in a chat.
        self.active_match_for = self.active.active_match_for
        self.active_match_with_players = self.active.active_match_with_players
        self.active_match_queries = self.active.active_match_queries
        self.active_match_read = self.active.active_match_read
        self.active_match_id_for = self.active.active_match_id_for
        # Rows found by what they are.
        self.match_info = self.listings.match_info
        self.latest_match_for = self.listings.latest_match_for
        self.latest_match_in = self.listings.latest_match_in
        self.active_matches_of = self.listings.active_matches_of
        self.timed_matches = self.listings.timed_matches
        self.clocks_before = self.listings.clocks_before
        self.bot_turn_matches = self.listings.bot_turn_matches
        self.find_by_slug = self.listings.find_by_slug
        self.versions_of = self.listings.versions_of
        self.latest_finished_for = self.listings.latest_finished_for
        # What the clock asks and marks.
        self.last_action_at = self.activity.last_action_at
        self.acted_since = self.activity.acted_since
        self.claim_reminder = self.activity.claim_reminder
