"""/metrics of `umpire serve --workers N` (server/metrics.py, `combine`, `WorkerShare`):
every series summed over the workers under its own name, each worker's own under
`umpire_worker_*`, one group per family. Fails on main: there is no `combine`."""

from __future__ import annotations

import re
from pathlib import Path

from umpire.server.metrics import Metrics, WorkerShare, combine


def value(text: str, series: str) -> float:
    found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    assert found, series
    return float(found.group(1))


def two_workers() -> tuple[str, str]:
    a, b = Metrics(), Metrics()
    a.observe_command(0.002, appended=True)
    a.error("unknown_game")
    b.observe_command(0.02, appended=False)
    b.observe_command(0.004, appended=True)
    b.error("unknown_game")
    b.error("over_budget")
    a.gc.longest = [0.001, 0.002, 0.030]
    b.gc.longest = [0.004, 0.001, 0.010]
    return a.render_own(3, 1, 2), b.render_own(5, 2, 0)


def test_series_are_summed_and_kept_per_worker() -> None:
    text = combine(dict(enumerate(two_workers())))
    assert value(text, "umpire_workers") == 2
    assert value(text, "umpire_commands_total") == 3
    assert value(text, "umpire_appends_total") == 2
    assert value(text, "umpire_connections_open") == 8
    assert value(text, 'umpire_errors_total{code="unknown_game"}') == 2
    assert value(text, 'umpire_errors_total{code="over_budget"}') == 1
    assert value(text, 'umpire_command_seconds_bucket{le="0.005"}') == 2
    assert value(text, "umpire_command_seconds_count") == 3
    # A longest pause is the longest of any worker's, not a sum.
    assert value(text, 'umpire_gc_pause_longest_seconds{generation="2"}') == 0.03
    assert value(text, 'umpire_worker_commands_total{worker="0"}') == 1
    assert value(text, 'umpire_worker_commands_total{worker="1"}') == 2
    assert value(text, 'umpire_worker_errors_total{worker="1",code="over_budget"}') == 1


def test_each_family_is_one_group_under_one_type_line() -> None:
    text = combine(dict(enumerate(two_workers())))
    families: list[str] = []
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            families.append(line.split()[2])
            continue
        name = line.partition("{")[0].partition(" ")[0]
        assert name.startswith(families[-1]), (line, families[-1])
    assert len(families) == len(set(families))


def test_a_worker_answers_with_every_workers_figures(tmp_path: Path) -> None:
    _, second = two_workers()
    WorkerShare(tmp_path, 1).publish(second)
    (tmp_path / "worker-x.prom").write_text("not a worker's file")
    metrics = Metrics()
    metrics.share = WorkerShare(tmp_path, 0)
    metrics.observe_command(0.001, appended=True)
    text = metrics.render(1, 0, 0)
    assert value(text, "umpire_workers") == 2
    assert value(text, "umpire_commands_total") == 3
    assert value(text, 'umpire_worker_commands_total{worker="0"}') == 1
