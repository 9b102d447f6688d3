"""Gateway metrics in the Prometheus text exposition format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from server.collector import Pauses

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
        """The exposition text."""
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
