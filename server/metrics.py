"""Gateway metrics in the Prometheus text exposition format."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from umpire.server.collector import Pauses

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """Counters, gauges and one latency histogram, rendered for /metrics."""

    def __init__(self) -> None:
        self.connections_total = 0
        self.commands = 0
        self.appends = 0
        self.games_created = 0
        self.frames_sent = 0
        self.events_delivered = 0
        # Live subscriptions whose queue was full when an event came: each caught up alone.
        self.subscriptions_lagged = 0
        # Revocations announced to this gateway (server/revocations.py).
        self.revocations_heard = 0
        self.errors: Counter[str] = Counter()
        self.buckets = [0] * len(BUCKETS)
        self.latency_sum = 0.0
        self.gc = Pauses()
        # More exposition lines, from the parts that keep their own counts (admission).
        self.sources: list[Callable[[], list[str]]] = []
        # In a worker of `umpire serve --workers N`: where the workers' figures meet.
        self.share: WorkerShare | None = None

    def error(self, code: str) -> None:
        """Count an error by its code."""
        self.errors[code] += 1

    def observe_command(self, seconds: float, *, appended: bool) -> None:
        """Record one command's latency."""
        self.commands += 1
        self.appends += int(appended)
        self.latency_sum += seconds
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.buckets[i] += 1

    def render(self, connections_open: int, feeds: int, subscriptions: int) -> str:
        """The exposition text: this process's, or in a worker every worker's (summed
        and each its own, `combine`)."""
        own = self.render_own(connections_open, feeds, subscriptions)
        return own if self.share is None else self.share.gather(own)

    def render_own(self, connections_open: int, feeds: int, subscriptions: int) -> str:
        """The exposition text of this process alone."""
        lines = [
            "# TYPE umpire_connections_open gauge",
            f"umpire_connections_open {connections_open}",
            "# TYPE umpire_connections_total counter",
            f"umpire_connections_total {self.connections_total}",
            "# TYPE umpire_subscriptions gauge",
            f"umpire_subscriptions {subscriptions}",
            "# TYPE umpire_game_feeds gauge",
            f"umpire_game_feeds {feeds}",
            "# TYPE umpire_commands_total counter",
            f"umpire_commands_total {self.commands}",
            "# TYPE umpire_appends_total counter",
            f"umpire_appends_total {self.appends}",
            "# TYPE umpire_games_created_total counter",
            f"umpire_games_created_total {self.games_created}",
            "# TYPE umpire_events_delivered_total counter",
            f"umpire_events_delivered_total {self.events_delivered}",
            "# TYPE umpire_subscriptions_lagged_total counter",
            f"umpire_subscriptions_lagged_total {self.subscriptions_lagged}",
            "# TYPE umpire_frames_sent_total counter",
            f"umpire_frames_sent_total {self.frames_sent}",
            "# TYPE umpire_revocations_heard_total counter",
            f"umpire_revocations_heard_total {self.revocations_heard}",
            "# TYPE umpire_errors_total counter",
        ]
        for code in sorted(self.errors):
            lines.append(f'umpire_errors_total{{code="{code}"}} {self.errors[code]}')
        lines.append("# TYPE umpire_command_seconds histogram")
        for bound, count in zip(BUCKETS, self.buckets, strict=True):
            lines.append(f'umpire_command_seconds_bucket{{le="{bound}"}} {count}')
        lines.append(f'umpire_command_seconds_bucket{{le="+Inf"}} {self.commands}')
        lines.append(f"umpire_command_seconds_sum {self.latency_sum:.6f}")
        lines.append(f"umpire_command_seconds_count {self.commands}")
        lines += self.gc.render()
        for source in self.sources:
            lines += source()
        return "\n".join(lines) + "\n"


# Families whose samples are a maximum over workers, not a sum (a longest pause).
# Thresholds are the same setting in every worker, not amounts.
_MAXIMA = ("umpire_gc_pause_longest_seconds", "umpire_gc_threshold")
_HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")
WORKER_PREFIX = "umpire_worker_"


def _parse(text: str) -> tuple[dict[str, str], dict[str, float]]:
    """The families (name -> kind, in order) and samples (series -> value) of a text."""
    kinds: dict[str, str] = {}
    samples: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            parts = line.split()
            if len(parts) == 4:
                kinds.setdefault(parts[2], parts[3])
        elif line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            try:
                samples[series] = float(value)
            except ValueError:
                continue  # a garbled line is left out rather than failing /metrics
    return kinds, samples


def _family(series: str, kinds: dict[str, str]) -> str:
    name = series.partition("{")[0]
    if name not in kinds:
        for part in _HISTOGRAM_PARTS:
            if name.endswith(part) and name.removesuffix(part) in kinds:
                return name.removesuffix(part)
    return name


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:.6f}"


def _renamed(name: str) -> str:
    return WORKER_PREFIX + name.removeprefix("umpire_")


def _per_worker(series: str, worker: int) -> str:
    """`umpire_x{a="1"}` as `umpire_worker_x{worker="2",a="1"}`."""
    name, brace, labels = series.partition("{")
    if brace:
        return f'{_renamed(name)}{{worker="{worker}",{labels}'
    return f'{_renamed(name)}{{worker="{worker}"}}'


def combine(expositions: dict[int, str]) -> str:
    """One exposition for the worker processes of `umpire serve --workers N`, from each
    worker's own (`expositions`: worker number -> its text).

    `umpire_workers` (how many are summed), then every series summed over the workers
    under its own name, so what was built for one process reads the whole server (a
    longest pause is the maximum, not a sum); then each worker's own series as
    `umpire_worker_<name>{worker="<k>",...}`. Each family's lines stay in one group."""
    kinds: dict[str, str] = {}
    totals: dict[str, dict[str, float]] = {}
    own: dict[str, list[str]] = {}
    for worker in sorted(expositions):
        found, samples = _parse(expositions[worker])
        for name, kind in found.items():
            kinds.setdefault(name, kind)
        for series, value in samples.items():
            family = _family(series, kinds)
            summed = totals.setdefault(family, {})
            if series not in summed:
                summed[series] = value
            elif family in _MAXIMA:
                summed[series] = max(summed[series], value)
            else:
                summed[series] += value
            own.setdefault(family, []).append(f"{_per_worker(series, worker)} {_number(value)}")
    lines = ["# TYPE umpire_workers gauge", f"umpire_workers {len(expositions)}"]
    for family, summed in totals.items():
        lines.append(f"# TYPE {family} {kinds.get(family, 'untyped')}")
        lines += [f"{series} {_number(value)}" for series, value in summed.items()]
    for family, samples in own.items():
        lines.append(f"# TYPE {_renamed(family)} {kinds.get(family, 'untyped')}")
        lines += samples
    return "\n".join(lines) + "\n"


class WorkerShare:
    """Where the workers of one `umpire serve --workers N` meet for /metrics: a private
    directory (made by the parent, 0700) holding each worker's latest exposition as
    `worker-<k>.prom`, rewritten every second. Whichever worker answers /metrics sums
    its own live figures with the others' files. A dead worker's file stays until its
    replacement overwrites it, so the sum does not drop while it restarts; the new
    process's counters start from zero (a counter reset, as for any restarted process)."""

    def __init__(self, directory: Path, worker: int) -> None:
        self.directory = Path(directory)
        self.worker = worker

    def path(self, worker: int) -> Path:
        """The file of `worker`'s exposition."""
        return self.directory / f"worker-{worker}.prom"

    def publish(self, own: str) -> None:
        """Replace this worker's file with `own` (atomically: a reader never sees half)."""
        target = self.path(self.worker)
        temporary = target.with_name(f".{target.name}.{os.getpid()}")
        temporary.write_text(own)
        os.replace(temporary, target)

    def gather(self, own: str) -> str:
        """Every worker's exposition combined, this one's (`own`) live."""
        texts = {self.worker: own}
        with contextlib.suppress(OSError):
            for entry in self.directory.glob("worker-*.prom"):
                number = entry.stem.removeprefix("worker-")
                if number.isdigit() and int(number) != self.worker:
                    with contextlib.suppress(OSError):
                        texts[int(number)] = entry.read_text()
        return combine(texts)
