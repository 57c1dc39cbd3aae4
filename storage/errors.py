"""What storage refuses, as distinct errors the command layer can answer politely."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the storage errors."""


class ConflictError(StorageError):
    """Someone else changed the match first: the expected version is stale; nothing written."""


class AlreadyAppliedError(StorageError):
    """The action of this platform event is in the match's log already (the same update
    handled a second time): nothing was written."""


class NotFoundError(StorageError):
    """No such row."""


class SeedStillSecretError(StorageError):
    """The server seed of a match still being played is never handed out."""


class ChouetteEndedError(ConflictError):
    """The chouette session has ended: a write planned before the end (in any process) came
    after it, and nothing was written. Final, unlike a stale version: no retry can succeed."""


class ChouetteExistsError(ConflictError):
    """The chat has a chouette that has not ended (``chouette_id``, when known): a chat has
    one at a time, which the database enforces whatever races."""

    def __init__(self, message: str, chouette_id: int | None = None) -> None:
        super().__init__(message)
        self.chouette_id = chouette_id


class SeatTakenError(ConflictError):
    """A player of a match about to start already plays an active match in that chat.
    ``user_id`` names them when known (a race settled by the database may not say who)."""

    def __init__(self, message: str, user_id: int | None = None) -> None:
        super().__init__(message)
        self.user_id = user_id


class ChallengeLimitError(StorageError):
    """Too many open challenges: ``scope`` is ``"user"`` or ``"chat"``, ``limit`` the most
    allowed at once."""

    def __init__(self, scope: str, limit: int) -> None:
        super().__init__(f"at most {limit} open challenges per {scope}")
        self.scope = scope
        self.limit = limit


class DatabaseUnavailableError(StorageError):
    """The database cannot be opened (unreachable, no driver, unwritable); one line says why."""
