"""The CPU seconds a command's rules took, measured where they ran (server/rules_pool.py).

Its own module: the session (server/commands.py, server/requests.py) holds one for each
command and must import nothing that does I/O (tests/server/test_session_purity.py), as
the rules pool does.
"""

from __future__ import annotations

from msgspec import Struct


class WorkMeter(Struct, gc=False):
    """The CPU seconds the rules took for one command (every attempt, refused or not),
    measured in the thread or process that ran them; the gateway charges them to the
    sender's admission budget (server/admission.py work_cost).

    A mutable Struct (msgspec): made in C for every command (a class's __init__ is a Python
    call), untracked by the garbage collector (it holds three floats)."""

    seconds: float = 0.0
    last: float = 0.0
    # Of `last`, the garbage collector's: a collection that a run happened to start
    # (server/rules_pool.py leaves it out of what it learns of the command type).
    collected: float = 0.0
