"""The gateway process's garbage collector: its thresholds and what its pauses cost.

CPython's cyclic collector stops the event loop while it runs, and a full (generation 2)
collection visits every live object: about 150 per open connection, so with a thousand
connections a full collection took 100 ms or more on the 2-core benchmark machine, which
was the whole p99 of fan-out (docs/scale-out.md). Raising the last threshold makes full
collections about ten times rarer, at the cost of collecting long-lived cyclic garbage later; the
young generations keep CPython's thresholds, since raising those too (10000, 20, 20 was
tried) made each young collection long: 65 ms for one generation-1 collection under fan-out.
Freezing what start-up allocated (modules, classes, functions) keeps it out of every
later collection. The pauses are exported on /metrics so an operator sees what they cost.
"""

from __future__ import annotations

import gc
import time
from typing import Any


def tune(thresholds: tuple[int, int, int]) -> None:
    """Set the collector's thresholds and freeze everything allocated so far.

    Called once by `umpire serve` after start-up, never inside tests' processes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


class Pauses:
    """Count, total and longest pause of each generation's collections (gc.callbacks)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        took = time.perf_counter() - self._started
        self.count[generation] += 1
        self.seconds[generation] += took
        self.longest[generation] = max(self.longest[generation], took)

    def install(self) -> None:
        """Start recording."""
        gc.callbacks.append(self)

    def remove(self) -> None:
        """Stop recording."""
        if self in gc.callbacks:
            gc.callbacks.remove(self)

    def thresholds(self) -> tuple[int, int, int]:
        """The collector's thresholds now (for /metrics, server/metrics.py)."""
        return gc.get_threshold()
