"""The CPU seconds a command's rules took, measured where they ran (server/rules_pool.py).

Its own module: the session (server/commands.py, server/requests.py) holds one for each
command and must import nothing that does I/O (tests/server/test_session_purity.py), as
the rules pool does.
"""

from __future__ import annotations


class WorkMeter:
    """The CPU seconds the rules took for one command (every attempt, refused or not),
    measured in the thread or process that ran them; the gateway charges them to the
    sender's admission budget (server/admission.py work_cost)."""

    __slots__ = ("collected", "last", "seconds")

    def __init__(self) -> None:
        self.seconds = 0.0
        self.last = 0.0
        # Of `last`, the garbage collector's: a collection that a run happened to start
        # (server/rules_pool.py leaves it out of what it learns of the command type).
        self.collected = 0.0
