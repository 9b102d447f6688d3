"""A count said as a reader says it: "1 server roll", "2 server rolls", "0 commitments".

The audit's summaries (`umpire audit`, `umpire replay`, the receipts' anchor line) count
things that are often one; "1 server rolls" reads as a mistake. The independent verifier
(verifier/verify_export.py) and the browser verifier (clients/web/verify.js) say their
lines by the same rule, each with its own copy (they import nothing of umpire), and
tests/viewer/test_verify_page.py compares those two word for word.
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun: singular for exactly one, else `plural` (default: noun + "s")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
