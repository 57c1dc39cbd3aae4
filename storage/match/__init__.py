"""The parts :class:`storage.matches.MatchRepository` is composed of, one concern each: starting
a match (:mod:`.starts`), loading it (:mod:`.loads`, with the states kept in memory:
:mod:`.memory`), its history (:mod:`.history`), appending to its event log (:mod:`.appends`),
the user's active match found by their seat (:mod:`.active`), the listings (:mod:`.listings`)
and what the clock asks and marks (:mod:`.activity`); the SQL they share is in :mod:`.sql`."""
