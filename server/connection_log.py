"""The logger `umpire serve` gives websockets: one connection's comings and goings at DEBUG.

websockets logs, at INFO, "connection open", "HTTP response sent (200 OK)" and
"connection closed" for every connection, and every plain HTTP request (/healthz,
/metrics, the viewer's files) is a connection of its own: two lines per health check.
The server's own lines ("server listening on ...", "server closing", "server closed")
and every error (a handler that raised, a failed handshake, a failing `process_request`)
go through the same logger. websockets' documented way to shape its logs is the `logger`
argument of `serve` (a `LoggerAdapter`), and every record of a connection carries that
connection in its `websocket` extra (websockets.asyncio.connection), so the adapter tells
the two kinds apart by the record, not by its text. The lines are still there at DEBUG,
for an operator who sets `websockets.server` to DEBUG.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, MutableMapping
from typing import Any

SERVER_LOGGER = "websockets.server"


class QuietConnections(logging.LoggerAdapter[logging.Logger]):
    """websockets' server logger, with a connection's INFO records logged at DEBUG."""

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        """Log as `logging.LoggerAdapter.log`, one connection's INFO at DEBUG."""
        extra = kwargs.get("extra")
        if level == logging.INFO and isinstance(extra, Mapping) and "websocket" in extra:
            level = logging.DEBUG
        # The record names websockets' line that logged it, not this frame.
        kwargs["stacklevel"] = kwargs.get("stacklevel", 1) + 1
        super().log(level, msg, *args, **kwargs)

    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        """Keep the caller's `extra` (the connection), which the base class replaces."""
        return msg, kwargs


def connection_logger() -> QuietConnections:
    """The `logger` for websockets' `serve`."""
    return QuietConnections(logging.getLogger(SERVER_LOGGER), {})
