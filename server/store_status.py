"""The embedded store's state, from the parent of `umpire serve --workers N` to its workers.

The parent owns the embedded Valkey and its supervisor (server/supervisor.py); a worker
only sees its own connection fail. So the parent writes the supervisor's state into the
workers' private run directory (server/workers.py, `run_dir`) each time it changes,
and a worker's /healthz reads it (server/http.py, health): during a restart it answers
"store restarting, attempt N" at once, as the single-process gateway does, instead of
"unreachable" after its PING deadline. One small file, replaced atomically; read on each
/healthz (a few µs, and only health probes ask).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

FILE = "store.status"


class StoreStatus:
    """The supervisor's cause for /healthz ("store restarting, attempt N"), or none while
    the store runs, as a file in `directory`."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / FILE

    def publish(self, cause: str | None) -> None:
        """Record `cause` (None: the store runs); a reader never sees half a write."""
        temporary = self.path.with_name(f".{FILE}.{os.getpid()}")
        with contextlib.suppress(OSError):  # a health answer is never worth a crash
            temporary.write_text(cause or "")
            os.replace(temporary, self.path)

    def cause(self) -> str | None:
        """The cause last published, or None (the store runs, or nothing was published)."""
        try:
            return self.path.read_text() or None
        except OSError:
            return None
