"""Tournaments and leagues in the database: settings, entrants and matches by slot."""
