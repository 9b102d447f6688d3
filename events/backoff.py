"""How long a reconnecting loop waits before its next try: exponential, capped, jittered.

Below the server and the clients, so both use it: the gateway's loops that reconnect to
the store, and the Python client's retries of a refused re-auth or resubscribe
(clients/client.py). A store that went away (an external Redis restarting, a network
cut) is retried by every loop that holds a connection of its own: the revocation
listener, the notifier's pub/sub listener, one per cluster shard. A fixed short pause
makes each of them hammer a server that is trying to come back, in step with every other
gateway; doubling the pause up to a cap, with each pause drawn between half and all of
its step ("equal jitter"), spreads the tries out and still finds the store within one
cap of its return.
"""

from __future__ import annotations

import random

FIRST_SECONDS = 0.1
CAP_SECONDS = 2.0


class Backoff:
    """The pauses of one reconnecting loop: `next()` after each failure, `reset()` after
    a success. `pauses` keeps the pauses since the last success (tests and logs read it)."""

    def __init__(
        self,
        first: float = FIRST_SECONDS,
        cap: float = CAP_SECONDS,
        rng: random.Random | None = None,
    ) -> None:
        self.first = first
        self.cap = cap
        self.rng = rng or random.Random()
        self.pauses: list[float] = []

    def next(self) -> float:
        """The pause before the next try: step `first * 2**n` capped at `cap`, then a
        uniform draw between half the step and the step."""
        step = min(self.cap, self.first * 2 ** min(len(self.pauses), 32))
        pause = self.rng.uniform(step / 2, step)
        self.pauses.append(pause)
        return pause

    def reset(self) -> None:
        """A try succeeded: the next failure starts from `first` again."""
        self.pauses.clear()
