"""Client mistakes in the gateway's log: one line each, at a bounded rate, no traceback.

A hostile or broken client can make a mistake with every frame; logging each one would
let it fill the operator's disk and bury everything else. At most `per_second` lines a
second are written (a token bucket), and the first line after a quiet spell says how
many were left out. Every mistake is still counted in /metrics (umpire_errors_total).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class MistakeLog:
    """Writes one line per client mistake, at most `per_second` a second (burst the same)."""

    def __init__(
        self,
        logger: logging.Logger,
        per_second: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.per_second = per_second
        self.clock = clock
        self.tokens = per_second
        self.refilled = clock()
        self.suppressed = 0

    def note(self, address: str, code: str, detail: str, now: float | None = None) -> bool:
        """Log one mistake from `address` (unless over the rate); whether it was logged.

        `detail` is cut to 200 characters and written with %r, so no client text can
        forge a log line or carry terminal escapes into it. `now`: the time, for a caller
        that reads no clock (a session, server/session.py); the log's clock otherwise.
        """
        now = self.clock() if now is None else now
        self.tokens = min(self.per_second, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            self.suppressed += 1
            return False
        self.tokens -= 1
        left_out, self.suppressed = self.suppressed, 0
        more = f" ({left_out} more not logged)" if left_out else ""
        self.logger.info("client %s: %s: %r%s", address, code, detail[:200], more)
        return True
