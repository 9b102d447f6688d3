"""What "the store cannot be reached" is, defined once.

A Redis call that fails this way (the connection refused, reset or timed out) may or may
not have reached the server. The Redis adapter (events/redis_store.py and the adapter
modules beside it) maps each such failure to `StoreUnavailable`, the error every store
protocol raises; server/ catches that. The tuple is also the gateway's last net for a
store call that did not map its failure, so there is one list, here.
"""

from __future__ import annotations

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from umpire.events.errors import StoreUnavailable, StoreUnreachable

# OSError covers the builtin ConnectionError (a refused or reset socket before redis-py
# wraps it, a unix socket that is gone).
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# What an adapter that times a call itself raises when it runs out (events/append_batch.py's
# watchdog): redis-py's own, so it is retried and mapped as redis-py's is.
StoreTimeout = RedisTimeoutError

WRITE_UNKNOWN = (
    "a command may or may not have been written: retry it with the same command id, "
    "which applies it exactly once"
)


def why(exc: BaseException) -> str:
    """What went wrong, in words that never carry the exception's own text: redis-py's
    name the server's address (a socket path in the operator's home directory, a host and
    port), which a client has no business learning."""
    text = str(exc).lower()
    if type(exc).__name__ == "MaxConnectionsError":
        reason = "every connection to it is busy"
    elif isinstance(exc, RedisTimeoutError | TimeoutError) or "timed out" in text:
        reason = "no answer in time"
    elif isinstance(exc, ConnectionRefusedError | FileNotFoundError) or "refused" in text:
        reason = "connection refused"
    else:
        reason = "connection lost"
    return f"{type(exc).__name__}: {reason}"


def unavailable(
    exc: BaseException, game_id: str = "", consequence: str = WRITE_UNKNOWN
) -> StoreUnavailable:
    """The StoreUnavailable that reports `exc` (without its text: see `why`);
    `consequence` says what the caller may do."""
    return unreachable(exc).unavailable(game_id, consequence)


def unreachable(exc: BaseException) -> StoreUnreachable:
    """`exc`, one of UNREACHABLE, as the sans-I/O session is told of it (server/driver.py)."""
    found = StoreUnreachable(type(exc).__name__, why(exc))
    found.__cause__ = exc
    return found


def for_session(exc: BaseException) -> BaseException:
    """The error a failed request is handed to the session as: one of UNREACHABLE as a
    `StoreUnreachable` (the session imports nothing of redis-py), any other as it is."""
    return unreachable(exc) if isinstance(exc, UNREACHABLE) else exc
