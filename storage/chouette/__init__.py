"""The parts :class:`storage.chouettes.ChouetteRepository` is composed of, one concern each:
reading a session (:mod:`.reads`, with the running games kept in memory: :mod:`.memory`),
opening and ending it (:mod:`.tables`), its seats (:mod:`.seats`), its games and their event
log (:mod:`.games`), what the clock lists and marks (:mod:`.listings`, :mod:`.activity`) and
its dice (:mod:`.dice`); the SQL they share is in :mod:`.sql`, the records they hand out in
:mod:`.records`."""
