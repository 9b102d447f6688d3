"""Typed errors of the log. Each carries a stable code, a message for people and details.

The gateway turns these into structured error frames; the CLI prints them. The code is
part of the protocol (docs/protocol.md), so codes are never renamed.
"""

from __future__ import annotations

from typing import Any


class UmpireError(Exception):
    """Base of every error umpire reports to a user: a code, a message and details."""

    code: str = "error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled whole (a refusal decided in a worker process, server/rules_pool.py): the
        # subclasses' keyword-only __init__ cannot be called again from `args` alone.
        return (_restored, (type(self), self.message), self.__dict__)


def _restored(cls: type[UmpireError], message: str) -> UmpireError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    return error


class InvalidGameId(UmpireError):
    """A game id that is not of the allowed form."""

    code = "invalid_game_id"


class InvalidCommandId(UmpireError):
    """A command id that is not of the allowed form."""

    code = "invalid_command_id"


class InvalidCommand(UmpireError):
    """A command that is not of any allowed shape (unknown type, missing or bad field; or,
    typed as words, a word that is not FIELD=VALUE: events/command_words.py)."""

    code = "invalid_command"


class GameNotFound(UmpireError):
    """No game has that id."""

    code = "game_not_found"


class LogRewound(UmpireError):
    """The game's log ends before events a client was sent: the store lost acknowledged
    writes (a crash under `appendfsync everysec`, a restore from an older file)."""

    code = "log_rewound"


class LogGap(UmpireError):
    """The game's log skips seqs: a middle step of the store was lost (an AOF damaged and
    loaded), so the events after the gap cannot be delivered in order."""

    code = "log_gap"


class FromSeqPastHead(UmpireError):
    """A subscribe's `from_seq` is past the end of the game's log, and no event that far
    was ever acknowledged: a mistaken seq, not a lost one (a lost one is LogRewound)."""

    code = "from_seq_past_head"


class GameExists(UmpireError):
    """A game with that id was created already."""

    code = "game_exists"


class VersionConflict(UmpireError):
    """The stream moved on since the writer read it: reload and retry."""

    code = "version_conflict"

    def __init__(self, message: str, *, expected: int, actual: int) -> None:
        super().__init__(message, expected=expected, actual=actual)
        self.expected = expected
        self.actual = actual


class CommandIdReused(UmpireError):
    """A command id sent again with another body (events/command_body.py): the first
    command stands, this one is refused and nothing is written."""

    code = "command_id_reused"


class ExpectedVersionAhead(UmpireError):
    """The writer claims a version the stream has not reached: a client bug, not a race."""

    code = "expected_version_ahead"


class UnknownEventType(UmpireError):
    """A stored event whose type tag or version this build cannot decode."""

    code = "unknown_event_type"


class CorruptEvent(UmpireError):
    """Stored bytes that do not decode as an event."""

    code = "corrupt_event"


class ChainBroken(UmpireError):
    """The hash chain does not verify: an event was edited, removed or reordered."""

    code = "chain_broken"

    def __init__(self, message: str, *, seq: int, reason: str) -> None:
        super().__init__(message, seq=seq, reason=reason)
        self.seq = seq
        self.reason = reason


class Unauthorized(UmpireError):
    """A missing, wrong, revoked or foreign credential, or a role that may not do this."""

    code = "unauthorized"


class DurabilityUnconfirmed(UmpireError):
    """The events were appended, but the fsyncs asked for (WAITAOF) were not confirmed in
    time. They are in the log: retrying the command id returns them."""

    code = "durability_unconfirmed"


class StoreUnavailable(UmpireError):
    """The store cannot be reached; nothing was written."""

    code = "store_unavailable"


class StoreUnreachable(Exception):
    """A store call that failed for want of the store (events/unreachable.py
    `UNREACHABLE`: redis-py's connection and timeout errors, OSError) and that no adapter
    mapped to StoreUnavailable, as the driver hands it to the sans-I/O session
    (server/driver.py): the session knows it by this type without importing redis-py.
    `name` is the failure's type, `reason` its type and what went wrong, never its text
    (events/unreachable.py `why`). Not an UmpireError: only the session's own net and the
    reads that name their consequence answer it, as they answered the raw failure."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(reason)
        self.name = name
        self.reason = reason

    def unavailable(self, game_id: str, consequence: str) -> StoreUnavailable:
        """The StoreUnavailable that reports it; `consequence` says what the caller may do."""
        return StoreUnavailable(
            f"the store is unavailable ({self.reason}); {consequence}", game_id=game_id
        )


class StoreFull(UmpireError):
    """The store's disk has less free space than its watermark: writes are refused
    before they reach the store (which would fail on a short AOF write), reads are still
    served; nothing was written."""

    code = "store_full"
