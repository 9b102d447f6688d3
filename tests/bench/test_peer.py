"""`python -m bench peer`'s figures from the peer bench's recorded `runs.json` (no Node):
medians over the runs that finished, CPU per move, issue #44's ratios and whether each meets
its goal, the table, and one line with exit 0 when the bench cannot run here. No figure of
the recording is asserted as a speed: only that the printed figure is the recorded one."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from bench import __main__ as bench_main
from bench import peer

DATA = Path(__file__).parent / "data"


def recorded() -> list[dict[str, Any]]:
    """Both passes of one recorded run, labelled as the figure labels them."""
    first = json.loads((DATA / "peer_runs_umpire_colyseus_bgio.json").read_text())
    floor = json.loads((DATA / "peer_runs_floor.json").read_text())
    return peer.label(first, {"umpire-everysec": "umpire", "colyseus": "colyseus",
                              "memory": "boardgame.io"}) + peer.label(
        floor, {"umpire-everysec": "floor"})  # fmt: skip


def record(
    server: str, test: str, rate: float, p50: float, p99: float, **extra: Any
) -> dict[str, Any]:
    result: dict[str, Any] = {"moves": int(rate * 10), "lat_ms": {"p50": p50, "p99": p99}}
    if test == "fanout":
        result = {"moves": int(rate * 10), "achieved_moves_per_s": rate,
                  "spectator_lat_ms": {"p50": p50, "p99": p99}}  # fmt: skip
    else:
        result["moves_per_s"] = rate
    return {"server": server, "storage": peer.STORAGE[server], "test": test,
            "result": result | extra.pop("result", {}),
            "server_before": {"cpu_s": 1.0, "VmRSS": 1024},
            "server_after": {"cpu_s": 2.0, "VmRSS": 2048}, **extra}  # fmt: skip


def test_the_medians_are_those_of_the_recorded_runs() -> None:
    records = recorded()
    summary = peer.summarize(records)
    assert set(summary) == {"umpire", "floor", "colyseus", "boardgame.io"}
    assert set(summary["floor"]) == {"seq", "tput"}
    for server, tests in summary.items():
        for test, got in tests.items():
            mine = [r for r in records if r["server"] == server and r["test"] == test]
            assert got["runs"] + got["errors"] == len(mine)
            ok = [r for r in mine if not r.get("error")]
            key = "achieved_moves_per_s" if test == "fanout" else "moves_per_s"
            lat = "spectator_lat_ms" if test == "fanout" else "lat_ms"
            assert got["moves_per_s"] == statistics.median(r["result"][key] for r in ok)
            assert got["p99_ms"] == statistics.median(r["result"][lat]["p99"] for r in ok)
            cpu = [(r["server_after"]["cpu_s"] - r["server_before"]["cpu_s"])
                   / r["result"]["moves"] * 1e6 for r in ok]  # fmt: skip
            assert got["server_cpu_us_per_move"] == pytest.approx(statistics.median(cpu))
    tput = [r for r in records if r["server"] == "umpire" and r["test"] == "tput"]
    client = [r["result"]["client_cpu_pct"] / 100 / r["result"]["moves_per_s"] * 1e6 for r in tput]
    assert summary["umpire"]["tput"]["client_cpu_us_per_move"] == pytest.approx(
        statistics.median(client)
    )
    # The bench reports no load-generator CPU for `seq`.
    assert summary["umpire"]["seq"]["client_cpu_us_per_move"] is None


def test_the_ratios_are_the_acceptances_over_the_recorded_medians() -> None:
    summary = peer.summarize(recorded())
    found = peer.ratios(summary)
    tput = found["tput moves/s, umpire ÷ Colyseus"]
    assert tput["value"] == round(
        summary["umpire"]["tput"]["moves_per_s"] / summary["colyseus"]["tput"]["moves_per_s"], 3
    )
    assert tput["met"] is (tput["value"] >= 1)
    seq = found["seq p50, umpire ÷ floor --store"]
    assert seq["top"] == summary["umpire"]["seq"]["p50_ms"]
    assert seq["bottom"] == summary["floor"]["seq"]["p50_ms"]
    assert seq["goal"] == "≤ 1.25" and seq["met"] is (seq["value"] <= 1.25)
    fan = found["fanout spectator p99, umpire ÷ Colyseus"]
    assert fan["bottom"] == summary["colyseus"]["fanout"]["p99_ms"]
    assert found["seq p50, umpire ÷ Colyseus"]["met"] is None  # a reference, no goal


def test_each_goal_is_judged_on_its_side_of_its_limit() -> None:
    def judged(umpire: dict[str, float], other: dict[str, float]) -> dict[str, Any]:
        records = [record("umpire", "seq", 1000, umpire["seq"], 2.0),
                   record("floor", "seq", 2000, other["seq"], 1.0),
                   record("umpire", "tput", umpire["tput"], 5.0, umpire["p99"]),
                   record("colyseus", "tput", 100.0, 5.0, other["p99"]),
                   record("umpire", "fanout", umpire["fan"], 1.0, 5.0),
                   record("colyseus", "fanout", 100.0, 1.0, 5.0)]  # fmt: skip
        return {k: v["met"] for k, v in peer.ratios(peer.summarize(records)).items()}

    met = judged({"seq": 1.25, "tput": 100.0, "p99": 10.0, "fan": 100.0},
                 {"seq": 1.0, "p99": 10.0})  # fmt: skip
    assert met == {"tput moves/s, umpire ÷ Colyseus": True, "tput p99, umpire ÷ Colyseus": True,
                   "seq p50, umpire ÷ floor --store": True,
                   "fanout achieved/s, umpire ÷ Colyseus": True,
                   "fanout spectator p99, umpire ÷ Colyseus": True,
                   "seq p50, umpire ÷ Colyseus": None}  # fmt: skip
    missed = judged({"seq": 1.3, "tput": 99.0, "p99": 10.1, "fan": 99.0},
                    {"seq": 1.0, "p99": 10.0})  # fmt: skip
    assert [k for k, v in missed.items() if v is False] == [
        "tput moves/s, umpire ÷ Colyseus", "tput p99, umpire ÷ Colyseus",
        "seq p50, umpire ÷ floor --store", "fanout achieved/s, umpire ÷ Colyseus"]  # fmt: skip


def test_a_failed_run_is_counted_and_left_out_of_the_median() -> None:
    failed = {**record("umpire", "tput", 0.0, 0.0, 0.0), "error": "timeout: throughput drain"}
    records = [record("umpire", "tput", 100.0, 1.0, 10.0),
               record("umpire", "tput", 300.0, 1.0, 30.0), failed]  # fmt: skip
    got = peer.summarize(records)["umpire"]["tput"]
    assert (got["runs"], got["errors"], got["moves_per_s"], got["p99_ms"]) == (2, 1, 200.0, 20.0)
    row = dict((r[0], r[1]) for r in peer.scenario_rows(peer.summarize(records)))
    assert row["tput moves/s; p99 ms"] == "200; 20.0 (1 failed)"


def test_a_ratio_whose_side_did_not_run_says_so() -> None:
    summary = peer.summarize([r for r in recorded() if r["server"] != "floor"])
    found = peer.ratios(summary)
    assert found["seq p50, umpire ÷ floor --store"] == {
        "value": None, "top": summary["umpire"]["seq"]["p50_ms"], "bottom": None,
        "goal": "≤ 1.25", "met": None}  # fmt: skip
    rows = {r[0]: r for r in peer.ratio_rows(found)}
    assert rows["seq p50, umpire ÷ floor --store"][1] == "not measured (a side did not run)"


def test_the_rows_show_each_server_and_each_ratio_beside_its_goal() -> None:
    summary = peer.summarize(recorded())
    rows = peer.scenario_rows(summary)
    assert [r[0] for r in rows][:3] == ["seq moves/s; p50 / p99 ms", "tput moves/s; p99 ms",
                                        "fanout achieved/s; spectator p99 ms"]  # fmt: skip
    assert all(len(r) == 5 for r in rows)  # the scenario and four servers
    fanout = rows[2]
    assert fanout[2] == "–"  # the floor answers no spectators
    u = summary["umpire"]["tput"]
    assert rows[1][1] == f"{u['moves_per_s']:,.0f}; {u['p99_ms']:,.1f}"
    for name, measured, goal in peer.ratio_rows(peer.ratios(summary)):
        got = peer.ratios(summary)[name]
        assert measured.endswith(f"= {got['value']:.2f}")
        assert goal.startswith(got["goal"])
        assert goal.endswith({True: "met", False: "not met", None: got["goal"]}[got["met"]])


def test_the_two_passes_run_the_floor_apart_with_its_own_tests() -> None:
    both = peer.passes(peer.SERVERS, "/venv/bin/umpire", "/tmp/x/floor-store")
    assert [(p.labels, p.tests, p.umpire) for p in both] == [
        ({"umpire-everysec": "umpire", "colyseus": "colyseus", "memory": "boardgame.io"},
         ("seq", "tput", "fanout"), "/venv/bin/umpire"),
        ({"umpire-everysec": "floor"}, ("seq", "tput"), "/tmp/x/floor-store"),
    ]  # fmt: skip
    assert [p.labels for p in peer.passes(["floor"], "u", "f")] == [{"umpire-everysec": "floor"}]


def test_one_scenario_alone_runs_only_it_and_an_unknown_one_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`python -m bench peer --tests seq`: an alternated comparison of one scenario."""
    alone = peer.passes(["umpire", "floor"], "u", "f", tests=["seq"])
    assert [(p.labels, p.tests) for p in alone] == [
        ({"umpire-everysec": "umpire"}, ("seq",)),
        ({"umpire-everysec": "floor"}, ("seq",)),
    ]
    # The floor has no fan-out: it is left out, not run empty.
    assert [p.tests for p in peer.passes(["umpire", "floor"], "u", "f", tests=["fanout"])] == [
        ("fanout",)
    ]
    with pytest.raises(SystemExit):
        bench_main.main(["peer", "--tests", "seq,sqe"])
    assert "--tests: unknown sqe; choose from seq, tput, fanout" in capsys.readouterr().err


def test_without_node_it_says_so_in_one_line_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert bench_main.main(["peer"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no `node` on PATH" in err


def test_without_the_peer_bench_it_says_so_in_one_line_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(peer.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setenv("UMPIRE_PEER_BENCH", str(tmp_path))
    assert bench_main.main(["peer"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"no peer bench at {tmp_path} (set UMPIRE_PEER_BENCH" in err


def test_the_bench_is_found_beside_the_repository_or_its_main_checkout_unless_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("UMPIRE_PEER_BENCH", raising=False)
    clone = tmp_path / "ci" / "umpire"
    (clone / ".git").mkdir(parents=True)
    assert peer.bench_dir(clone) == tmp_path / "ci" / "shared" / "peer-bench"
    # A worktree elsewhere: its `.git` names its git dir, whose commondir is the main's.
    main, tree = tmp_path / "work" / "main", tmp_path / "wt" / "feature"
    gitdir = main / ".git" / "worktrees" / "feature"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    tree.mkdir(parents=True)
    (tree / ".git").write_text(f"gitdir: {gitdir}\n")
    assert peer.bench_dir(tree) == tmp_path / "work" / "shared" / "peer-bench"
    monkeypatch.setenv("UMPIRE_PEER_BENCH", str(tmp_path / "mine"))
    assert peer.bench_dir(tree) == tmp_path / "mine"
