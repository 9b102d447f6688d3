"""The wall clock, read only here: envelope times are informational, never read by rules."""

from __future__ import annotations

import time

# The text of the current second, kept: every append stamps its events, and building the
# timestamp through `datetime` each time cost ~2 us of a command's ~30 us of pure work.
_second: list[tuple[int, str]] = [(-1, "")]


def iso_of_ms(ms: int) -> str:
    """Milliseconds since the Unix epoch as an ISO 8601 UTC timestamp with milliseconds
    (what `datetime.isoformat(timespec="milliseconds")` gives, with `Z` for UTC)."""
    second, milli = divmod(ms, 1000)
    kept, text = _second[0]
    if kept != second:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second[0] = (second, text)
    return f"{text}.{milli:03d}Z"


def utc_now_iso() -> str:
    """Now, as an ISO 8601 UTC timestamp with milliseconds (truncated, as `datetime`
    truncates them)."""
    return iso_of_ms(time.time_ns() // 1_000_000)
