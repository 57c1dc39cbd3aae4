"""What storage refuses, as distinct errors the command layer can answer politely."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the storage errors."""


class ConflictError(StorageError):
    """Someone else changed the match first: the expected version is stale; nothing written."""


class NotFoundError(StorageError):
    """No such row."""


class SeedStillSecretError(StorageError):
    """The server seed of a match still being played is never handed out."""
