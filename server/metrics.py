"""Gateway metrics through prometheus-client, one scrape summing every worker.

The gateway counts on its hot paths in plain attributes (an `int +=` a frame, a
`Counter` of error codes), as before; `flush` moves what changed since the last flush
into prometheus-client's metrics, before each scrape and, in a worker, every
FLUSH_SECONDS (a task of the gateway), so no frame pays a lock or a file write.

In a worker of `umpire serve --workers N`, prometheus-client runs in its multiprocess
mode: the parent sets PROMETHEUS_MULTIPROC_DIR to the `metrics` directory of its private
run directory (server/workers.py: under the data directory, 0700, emptied at start)
before it starts a worker, each worker's values live there in files named by its pid,
and whichever worker answers /metrics reads them all (`MultiProcessCollector`). A
counter is summed over every worker that has run (a dead worker's counts stay, so no
total drops when one is restarted); a gauge of what is open now is summed over the live
workers (the parent marks a dead worker's gauges dead, `mark_dead`); a longest pause and
a threshold are the maximum, the store's health the worst any live worker saw.

The families are all declared in `Families`, including the store's repairs and head
checkpoints, counted from `Metrics.repairs` and `Metrics.checkpoints_written` by
whatever part of the server does them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from prometheus_client import CollectorRegistry, disable_created_metrics, generate_latest
from prometheus_client import Counter as CounterFamily
from prometheus_client import Gauge as GaugeFamily
from prometheus_client import Histogram as HistogramFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from umpire.server.collector import Pauses

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# How a gauge sums over the workers (prometheus-client's multiprocess modes): live workers' only.
GaugeMode = Literal["livesum", "livemin", "livemax"]
FLUSH_SECONDS = 1.0  # how often a worker writes its figures where the others read them
GENERATIONS = ("0", "1", "2")

# A worker's exposition (multiprocess mode) has no `_created` series; a single process's
# has none either, so /metrics reads alike with one worker or many.
disable_created_metrics()


@dataclass(frozen=True)
class WorkerShare:
    """Worker `worker` of `count` in `umpire serve --workers N`, and the run directory
    the workers share with their parent (server/workers.py): `metrics/` is
    prometheus-client's multiprocess directory, and the parent writes the store
    supervisor's state beside it (server/store_status.py)."""

    directory: Path
    worker: int
    count: int = 1

    @property
    def metrics_dir(self) -> Path:
        """The PROMETHEUS_MULTIPROC_DIR of these workers."""
        return metrics_dir(self.directory)


def metrics_dir(run_dir: Path) -> Path:
    """The multiprocess metrics directory inside a run directory."""
    return Path(run_dir) / "metrics"


def mark_dead(pid: int, run_dir: Path) -> None:
    """Drop a dead worker's live gauges (its open connections, ...) from the sums; its
    counters stay."""
    mark_process_dead(pid, str(metrics_dir(run_dir)))


@dataclass(frozen=True)
class Figures:
    """What the gateway's other parts hold, read at each flush (server/gateway.py)."""

    connections_open: int = 0
    feeds: int = 0
    subscriptions: int = 0
    cost_units: Mapping[str, int] = field(default_factory=dict)  # by message kind
    over_budget: Mapping[str, int] = field(default_factory=dict)  # by scope
    paced: Mapping[str, int] = field(default_factory=dict)  # by message kind
    replay_events_folded: int = 0
    replay_answers_cached: int = 0
    replay_checkpoints: int = 0
    budget_clients: int = 0
    local_connections: Mapping[int, int] = field(default_factory=dict)  # uid -> open
    # Receipt signatures made, and the receipts they signed (server/receipt_batch.py):
    # the ratio is how many replies a loop turn's one signature covers.
    receipt_signatures: int = 0
    receipts_signed: int = 0


class Families:
    """Every family /metrics shows, registered in `registry`."""

    def __init__(self, registry: CollectorRegistry) -> None:
        def counter(name: str, doc: str, labels: tuple[str, ...] = ()) -> CounterFamily:
            return CounterFamily(name, doc, labels, registry=registry)

        def gauge(
            name: str, doc: str, mode: GaugeMode, labels: tuple[str, ...] = ()
        ) -> GaugeFamily:
            return GaugeFamily(name, doc, labels, registry=registry, multiprocess_mode=mode)

        # What is open now: summed over the live workers.
        self.workers = gauge("umpire_workers", "gateway processes serving", "livesum")
        self.connections_open = gauge("umpire_connections_open", "open websockets", "livesum")
        self.local_connections = gauge(
            "umpire_local_user_connections",
            "open loopback websockets by the local account holding them",
            "livesum",
            ("uid",),
        )
        self.subscriptions = gauge("umpire_subscriptions", "live subscriptions", "livesum")
        self.game_feeds = gauge("umpire_game_feeds", "games with a feed", "livesum")
        self.replay_checkpoints = gauge(
            "umpire_replay_checkpoints", "replay checkpoints held", "livesum"
        )
        self.budget_clients = gauge(
            "umpire_budget_clients",
            "clients (addresses, local accounts) with a budget held",
            "livesum",
        )
        # Counts since start, summed over every worker that ran.
        self.connections = counter("umpire_connections_total", "websockets accepted")
        self.commands = counter("umpire_commands_total", "commands answered")
        self.worker_commands = counter(
            "umpire_worker_commands_total", "commands answered, by worker", ("worker",)
        )
        self.appends = counter("umpire_appends_total", "commands that appended events")
        self.games_created = counter("umpire_games_created_total", "games created")
        self.receipt_signatures = counter(
            "umpire_receipt_signatures_total", "receipt signatures made (one per loop turn and key)"
        )
        self.receipts_signed = counter(
            "umpire_receipts_signed_total",
            "created, accepted and state receipts those signatures cover",
        )
        self.events_delivered = counter("umpire_events_delivered_total", "live events queued")
        self.subscriptions_lagged = counter(
            "umpire_subscriptions_lagged_total", "live subscriptions that caught up alone"
        )
        self.frames_sent = counter("umpire_frames_sent_total", "frames written")
        self.revocations_heard = counter(
            "umpire_revocations_heard_total", "revocations announced to a gateway"
        )
        self.errors = counter(
            "umpire_errors_total", "refusals and errors, by code (docs/protocol.md)", ("code",)
        )
        self.cost_units = counter(
            "umpire_cost_units_total", "admission units charged, by message kind", ("kind",)
        )
        self.over_budget = counter(
            "umpire_over_budget_total", "requests refused over budget, by scope", ("scope",)
        )
        self.paced = counter("umpire_paced_total", "waits for budget, by kind", ("kind",))
        self.replay_events_folded = counter(
            "umpire_replay_events_folded_total", "events folded for replays"
        )
        self.replay_answers_cached = counter(
            "umpire_replay_answers_cached_total", "replays answered from the cache"
        )
        self.command_seconds = HistogramFamily(
            "umpire_command_seconds", "command latency", buckets=BUCKETS, registry=registry
        )
        # The garbage collector (server/collector.py).
        self.gc_collections = counter("umpire_gc_collections_total", "collections", ("generation",))
        self.gc_pause_seconds = counter(
            "umpire_gc_pause_seconds_total", "time in collections", ("generation",)
        )
        self.gc_pause_longest = gauge(
            "umpire_gc_pause_longest_seconds", "longest collection", "livemax", ("generation",)
        )
        self.gc_threshold = gauge(
            "umpire_gc_threshold", "collector thresholds", "livemax", ("generation",)
        )
        # The store: the worst any live worker saw at its last look.
        self.store_up = gauge("umpire_store_up", "1 while the store answers PING", "livemin")
        self.store_ping_seconds = gauge(
            "umpire_store_ping_seconds", "the last PING's round trip", "livemax"
        )
        self.store_fsync_pending = gauge(
            "umpire_store_fsync_pending",
            "fsyncs of the append-only file queued, not done (the fsync lag)",
            "livemax",
        )
        self.store_fsync_delayed = gauge(
            "umpire_store_fsync_delayed",
            "fsyncs of the append-only file that waited for a slow disk, since the store started",
            "livemax",
        )
        self.store_write_ok = gauge(
            "umpire_store_write_ok",
            "1 while the store's last append-only write succeeded",
            "livemin",
        )
        # The store's integrity (docs/operations.md): counted by what does them.
        self.store_repairs = counter(
            "umpire_store_repairs_total", "store repairs, by outcome", ("outcome",)
        )
        self.store_checkpoints = counter(
            "umpire_store_checkpoints_total", "head checkpoints written"
        )
        # Set once at start, by one worker (server/store_check.py name_losses_at_start).
        self.store_lost_games = gauge(
            "umpire_store_lost_games",
            "games whose acknowledged events the store lost, named in the head checkpoints",
            "livemax",
        )


class Metrics:
    """One gateway's counts, flushed into its `Families` and rendered for /metrics."""

    def __init__(self, share: WorkerShare | None = None) -> None:
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
        # The store's repairs by outcome, and head checkpoints written (issue 43).
        self.repairs: Counter[str] = Counter()
        self.checkpoints_written = 0
        # Games with acknowledged events lost, as the head checkpoints name them at start.
        self.store_lost_games = 0
        # The store at the gateway's last look (server/gateway.py, `look_at_store`).
        self.store_up = True
        self.store_ping_seconds = 0.0
        self.store_persistence: dict[str, int] = {}
        self.gc = Pauses()
        # What the rest of the gateway holds, read at each flush.
        self.figures: Callable[[], Figures] = Figures
        # In a worker of `umpire serve --workers N`: which, and where the workers meet.
        self.share = share
        self.registry = CollectorRegistry(auto_describe=True)
        self.families = Families(self.registry)
        self._flushed: dict[tuple[object, ...], float] = {}
        self._local_uids: set[str] = set()
        # Commands' latencies not yet flushed: a count per bucket (+Inf last), and their sum.
        self._latency = [0] * (len(BUCKETS) + 1)
        self._latency_sum = 0.0

    def error(self, code: str) -> None:
        """Count an error by its code."""
        self.errors[code] += 1

    def observe_command(self, seconds: float, *, appended: bool) -> None:
        """Record one command's latency: counted here by its bucket (`flush` moves the
        counts into the histogram), as the other figures are, not observed by the
        histogram on every command (five Python calls and two locks; in a worker, two
        writes to its file)."""
        self.commands += 1
        self.appends += appended
        # The first bucket whose bound it does not pass (the histogram's `amount <= bound`);
        # past the last bound, the +Inf bucket.
        self._latency[bisect_left(BUCKETS, seconds)] += 1
        self._latency_sum += seconds

    def _flush_latency(self) -> None:
        """Move the latencies counted since the last flush into the histogram. By its
        bucket values: prometheus-client has no public call that adds n observations."""
        counts, total = self._latency, self._latency_sum
        if not any(counts):
            return
        histogram = self.families.command_seconds
        for bucket, count in zip(histogram._buckets, counts, strict=True):
            if count:
                bucket.inc(count)
        histogram._sum.inc(total)
        self._latency = [0] * len(counts)
        self._latency_sum = 0.0

    def _add(self, family: CounterFamily, total: float, *labels: str) -> None:
        """Bring a counter to `total` (a running count kept by the gateway)."""
        key = (id(family), *labels)
        delta = total - self._flushed.get(key, 0.0)
        child = family.labels(*labels) if labels else family  # shown at 0 too
        if delta > 0:
            child.inc(delta)
            self._flushed[key] = total

    def flush(self) -> None:
        """Move what changed since the last flush into the families."""
        f, add, now = self.families, self._add, self.figures()
        f.workers.set(1)
        f.connections_open.set(now.connections_open)
        f.subscriptions.set(now.subscriptions)
        f.game_feeds.set(now.feeds)
        f.replay_checkpoints.set(now.replay_checkpoints)
        f.budget_clients.set(now.budget_clients)
        uids = {str(uid): count for uid, count in now.local_connections.items()}
        for uid in self._local_uids - uids.keys():  # closed since: 0, not its last count
            f.local_connections.labels(uid).set(0)
        for uid, count in uids.items():
            f.local_connections.labels(uid).set(count)
        self._local_uids = set(uids)
        add(f.connections, self.connections_total)
        add(f.commands, self.commands)
        self._flush_latency()
        add(f.receipt_signatures, now.receipt_signatures)
        add(f.receipts_signed, now.receipts_signed)
        if self.share is not None:
            add(f.worker_commands, self.commands, str(self.share.worker))
        add(f.appends, self.appends)
        add(f.games_created, self.games_created)
        add(f.events_delivered, self.events_delivered)
        add(f.subscriptions_lagged, self.subscriptions_lagged)
        add(f.frames_sent, self.frames_sent)
        add(f.revocations_heard, self.revocations_heard)
        add(f.replay_events_folded, now.replay_events_folded)
        add(f.replay_answers_cached, now.replay_answers_cached)
        add(f.store_checkpoints, self.checkpoints_written)
        f.store_lost_games.set(self.store_lost_games)
        for family, counts in (
            (f.errors, self.errors),
            (f.cost_units, now.cost_units),
            (f.over_budget, now.over_budget),
            (f.paced, now.paced),
            (f.store_repairs, self.repairs),
        ):
            for label, count in list(counts.items()):
                add(family, count, label)
        for scope in ("connection", "address", "creates"):  # shown at 0 too
            f.over_budget.labels(scope)
        for generation, thresholds in zip(GENERATIONS, self.gc.thresholds(), strict=True):
            g = int(generation)
            add(f.gc_collections, self.gc.count[g], generation)
            add(f.gc_pause_seconds, self.gc.seconds[g], generation)
            f.gc_pause_longest.labels(generation).set(self.gc.longest[g])
            f.gc_threshold.labels(generation).set(thresholds)
        f.store_up.set(int(self.store_up))
        f.store_ping_seconds.set(self.store_ping_seconds)
        persistence = self.store_persistence
        f.store_fsync_pending.set(persistence.get("aof_pending_bio_fsync", 0))
        f.store_fsync_delayed.set(persistence.get("aof_delayed_fsync", 0))
        f.store_write_ok.set(persistence.get("aof_last_write_ok", 1))

    def render(self) -> str:
        """The exposition text: this process's, or in a worker every worker's."""
        self.flush()
        if self.share is None:
            return generate_latest(self.registry).decode()
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(self.share.metrics_dir))
        return generate_latest(registry).decode()
