"""The wall clock, read only here: envelope times are informational, never read by rules."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now_iso() -> str:
    """Now, as an ISO 8601 UTC timestamp with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
