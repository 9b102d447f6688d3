"""The gateway's metrics through prometheus-client (server/metrics.py), as plain code: the
plain counts flushed into the families, rendered, and parsed as Prometheus parses them.
Summing over the workers of `umpire serve --workers 2` is tests/faults/test_workers.py's."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from umpire.server.metrics import Figures, Metrics

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parsed(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_counts_flush_into_the_families_once_each() -> None:
    metrics = Metrics()
    metrics.observe_command(0.002, appended=True)
    metrics.observe_command(0.02, appended=False)
    metrics.error("unknown_game")
    metrics.error("unknown_game")
    metrics.error("over_budget")
    metrics.repairs["refused"] += 1
    metrics.checkpoints_written = 3
    metrics.figures = lambda: Figures(
        connections_open=5, cost_units={"view_at": 40}, local_connections={1001: 3, 0: 2},
        receipt_signatures=4, receipts_signed=30,
    )  # fmt: skip
    metrics.flush()  # a flush, then a scrape: nothing counted twice
    seen = parsed(metrics.render())
    assert seen[("umpire_commands_total", ())] == 2
    assert seen[("umpire_appends_total", ())] == 1
    assert seen[("umpire_errors_total", (("code", "unknown_game"),))] == 2
    assert seen[("umpire_errors_total", (("code", "over_budget"),))] == 1
    assert seen[("umpire_command_seconds_bucket", (("le", "0.005"),))] == 1
    assert seen[("umpire_command_seconds_count", ())] == 2
    assert seen[("umpire_cost_units_total", (("kind", "view_at"),))] == 40
    assert seen[("umpire_over_budget_total", (("scope", "address"),))] == 0
    assert seen[("umpire_connections_open", ())] == 5
    assert seen[("umpire_local_user_connections", (("uid", "1001"),))] == 3
    assert seen[("umpire_store_repairs_total", (("outcome", "refused"),))] == 1
    assert seen[("umpire_store_checkpoints_total", ())] == 3
    assert seen[("umpire_store_up", ())] == 1
    assert seen[("umpire_workers", ())] == 1
    # 30 receipts under 4 signatures: a loop turn's replies share one (docs/audit.md 8.4).
    assert seen[("umpire_receipt_signatures_total", ())] == 4
    assert seen[("umpire_receipts_signed_total", ())] == 30


def test_a_local_account_that_closed_its_connections_reads_zero() -> None:
    metrics = Metrics()
    metrics.figures = lambda: Figures(local_connections={1001: 3})
    metrics.flush()
    metrics.figures = lambda: Figures(local_connections={})
    seen = parsed(metrics.render())
    assert seen[("umpire_local_user_connections", (("uid", "1001"),))] == 0


def test_the_store_as_last_seen() -> None:
    metrics = Metrics()
    metrics.store_up = False
    metrics.store_persistence = {
        "aof_pending_bio_fsync": 2,
        "aof_delayed_fsync": 7,
        "aof_last_write_ok": 0,
    }
    seen = parsed(metrics.render())
    assert seen[("umpire_store_up", ())] == 0
    assert seen[("umpire_store_fsync_pending", ())] == 2
    assert seen[("umpire_store_fsync_delayed", ())] == 7
    assert seen[("umpire_store_write_ok", ())] == 0


def test_command_latencies_land_in_the_buckets_the_histogram_would_put_them_in() -> None:
    # Counted by bucket on the command path and moved into the histogram at each flush:
    # a latency on a bound is in that bound's bucket (`le`), one past the last bound only
    # in +Inf, the sum is every latency's, and a second flush adds nothing again.
    metrics = Metrics()
    for seconds in (0.005, 0.0051, 3.0, 0.0):
        metrics.observe_command(seconds, appended=True)
    metrics.flush()
    metrics.observe_command(0.02, appended=True)
    seen = parsed(metrics.render())  # flushes again
    bucket = {le: seen[("umpire_command_seconds_bucket", (("le", le),))] for le in (
        "0.001", "0.005", "0.01", "0.025", "2.5", "+Inf")}  # fmt: skip
    assert bucket == {"0.001": 1, "0.005": 2, "0.01": 3, "0.025": 4, "2.5": 4, "+Inf": 5}
    assert seen[("umpire_command_seconds_count", ())] == 5
    assert abs(seen[("umpire_command_seconds_sum", ())] - 3.0301) < 1e-9
