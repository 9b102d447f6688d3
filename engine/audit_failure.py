"""What an audit reports when a check fails: the seq, the check and the reason."""

from __future__ import annotations

from msgspec import Struct


class AuditFailure(Struct, frozen=True, kw_only=True):
    """The first divergence an audit found."""

    seq: int
    check: str
    message: str
    expected: str = ""
    found: str = ""
    rule: str = ""
