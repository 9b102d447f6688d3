"""`python -m bench peer`: the shared peer bench with issue #44's ratios beside their goals.

It runs the Node load generator of `../shared/peer-bench` (beside the repository, or beside
a worktree's main checkout; `UMPIRE_PEER_BENCH` names another folder) twice: once against
`umpire serve` (appendfsync everysec, two workers), Colyseus and boardgame.io (`memory`),
and once against `bench/floor.py --store` (`seq` and `tput`: the floor answers no
spectators), the peer bench's `umpire-everysec` storage with `UMPIRE_BIN` pointed at a
wrapper. Each runs from a fresh copy in a temporary folder: the shared folder stays
read-only, and the npm packages are installed once (`npm ci`) into a cache of ours keyed
by the lock file (`$XDG_CACHE_HOME/umpire/peer-bench/`, or `UMPIRE_PEER_BENCH_CACHE`).

The figures are medians over `--runs` repetitions (a fresh server each) of the bench's
`runs.json`; the ratios are those of the issue's acceptance. The server's CPU is its
whole process tree (workers and Valkey together: the bench sums the tree, it does not
split it), the load generator's is the bench's own Node process.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# Our names for the servers, and the peer bench's storage that runs each.
SERVERS = ("umpire", "floor", "colyseus", "boardgame.io")
STORAGE = {"umpire": "umpire-everysec", "floor": "umpire-everysec",
           "colyseus": "colyseus", "boardgame.io": "memory"}  # fmt: skip
# The floor serves `create`, `auth` and `command`, not a spectator's subscription.
FLOOR_TESTS = ("seq", "tput")
TESTS = ("seq", "tput", "fanout")
# The smallest sizes the bench accepts that still run every scenario: a smoke run.
QUICK = ("--seq-moves", "50", "--warmup-moves", "10", "--tput-matches", "2",
         "--tput-seconds", "1", "--fan-spectators", "2", "--fan-seconds", "1")  # fmt: skip
# What `run.sh` checks before it runs `npm ci`.
MODULES = ("boardgame.io", "@colyseus/core", "colyseus.js")


class Unavailable(Exception):
    """The peer bench cannot run here; the message says why and what to do."""


def bench_dir(repo: Path = REPO) -> Path:
    """The shared peer bench: `UMPIRE_PEER_BENCH`, else `../shared/peer-bench` beside the
    repository (the same folder in CI and in a fresh clone), else beside the main checkout
    of a git worktree (whose own parent is elsewhere)."""
    named = os.environ.get("UMPIRE_PEER_BENCH")
    if named:
        return Path(named)
    beside = repo.parent / "shared" / "peer-bench"
    main = _main_checkout(repo)
    if beside.exists() or main is None:
        return beside
    return main.parent / "shared" / "peer-bench"


def _main_checkout(repo: Path) -> Path | None:
    """A worktree's `.git` is a file naming its git dir, whose `commondir` leads to the
    main checkout's `.git` (read, not asked of git: no process for a path)."""
    marker = repo / ".git"
    if not marker.is_file():
        return None
    text = marker.read_text().strip()
    if not text.startswith("gitdir:"):
        return None
    gitdir = (repo / text.removeprefix("gitdir:").strip()).resolve()
    common = gitdir / "commondir"
    if not common.is_file():
        return None
    return (gitdir / common.read_text().strip()).resolve().parent


def cache_dir() -> Path:
    named = os.environ.get("UMPIRE_PEER_BENCH_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "umpire" / "peer-bench"


def umpire_bin() -> str | None:
    """`UMPIRE_BIN`, else the `umpire` beside this Python (the checkout's venv)."""
    named = os.environ.get("UMPIRE_BIN")
    if named:
        return named
    beside = Path(sys.executable).parent / "umpire"
    return str(beside) if beside.exists() else shutil.which("umpire")


def check() -> tuple[str, Path, str]:
    """(node, the peer bench, umpire), or Unavailable with the reason."""
    node = shutil.which("node")
    if node is None:
        raise Unavailable("no `node` on PATH (the peer bench is Node); install Node 20")
    bench = bench_dir()
    if not (bench / "bench.js").is_file():
        raise Unavailable(f"no peer bench at {bench} (set UMPIRE_PEER_BENCH to its folder)")
    umpire = umpire_bin()
    if umpire is None:
        raise Unavailable("no `umpire` executable (pip install -e . or set UMPIRE_BIN)")
    return node, bench, umpire


def node_modules(bench: Path) -> Path:
    """The peer bench's npm packages, installed once per lock file into our cache."""
    lock = bench / "package-lock.json"
    key = hashlib.sha256(lock.read_bytes()).hexdigest()[:16]
    home = cache_dir() / key
    modules = home / "node_modules"
    if all((modules / name / "package.json").is_file() for name in MODULES):
        return modules
    npm = shutil.which("npm")
    todo = f"mkdir -p {home} && cp {bench}/package*.json {home}/ && cd {home} && npm ci"
    if npm is None:
        raise Unavailable(f"its npm packages are missing and there is no `npm`: run {todo}")
    home.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(bench / name, home / name)
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=home,
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise Unavailable(f"`npm ci` failed ({last}): run {todo}")
    return modules


def working_copy(bench: Path, modules: Path, into: Path) -> Path:
    """The bench's files in a folder of ours, its packages linked: bench.js writes its
    `data/` and `results/` beside itself, and two runs must not share them."""
    into.mkdir(parents=True)
    for item in bench.iterdir():
        if item.is_file():
            shutil.copyfile(item, into / item.name)
    (into / "run.sh").chmod(0o755)
    (into / "node_modules").symlink_to(modules, target_is_directory=True)
    return into


def floor_wrapper(into: Path) -> Path:
    """The peer bench starts `$UMPIRE_BIN serve`; the floor runs from the repository."""
    script = into / "floor-store"
    script.write_text(
        f"#!/bin/sh\ncd {shlex.quote(str(REPO))} && "
        f"exec {shlex.quote(sys.executable)} -m bench.floor --store\n"
    )
    script.chmod(0o755)
    return script


@dataclass(frozen=True)
class Pass:
    """One `node bench.js` call: our labels for its storages, and what it runs."""

    labels: dict[str, str]  # storage -> our server name
    tests: tuple[str, ...]
    umpire: str


def passes(
    servers: Iterable[str], umpire: str, floor: str, tests: Iterable[str] = TESTS
) -> list[Pass]:
    """The `node bench.js` calls for `servers`, each with the scenarios of `tests` it runs
    (the floor has no `fanout`)."""
    chosen = [s for s in SERVERS if s in set(servers)]
    wanted = set(tests)
    first = {STORAGE[s]: s for s in chosen if s != "floor"}
    ours = tuple(t for t in TESTS if t in wanted)
    out = [Pass(first, ours, umpire)] if first and ours else []
    floors = tuple(t for t in FLOOR_TESTS if t in wanted)
    if "floor" in chosen and floors:
        out.append(Pass({STORAGE["floor"]: "floor"}, floors, floor))
    return out


def run_pass(node: str, copy: Path, one: Pass, runs: int, quick: bool) -> list[dict[str, Any]]:
    """Run bench.js once; its records, each labelled with our server name."""
    out = copy / "results" / "-".join(one.labels.values()).replace(".", "")
    argv = [node, "bench.js", "--storage", ",".join(one.labels), "--tests", ",".join(one.tests),
            "--reps", str(runs), "--out", str(out), *(QUICK if quick else ())]  # fmt: skip
    # Two workers whatever the core count: the configuration.
    env = {**os.environ, "UMPIRE_BIN": one.umpire, "UMPIRE_WORKERS": "2"}
    with (copy / "bench.log").open("a") as log:
        done = subprocess.run(argv, cwd=copy, env=env, stdout=log, stderr=subprocess.STDOUT)
    found = out / "runs.json"
    records = label(json.loads(found.read_text()), one.labels) if found.exists() else []
    if done.returncode != 0 and not records:
        raise RuntimeError(f"bench.js failed ({done.returncode}); see {copy / 'bench.log'}")
    return records


def label(records: list[dict[str, Any]], labels: dict[str, str]) -> list[dict[str, Any]]:
    """The bench's records with our server name: both passes call umpire's storage
    `umpire-everysec`, one of them runs the floor."""
    return [{**record, "server": labels[record["storage"]]} for record in records]


def environment(copy: Path) -> dict[str, Any]:
    """The bench's env.json of its first pass (machine, Node and package versions)."""
    for found in sorted((copy / "results").glob("*/env.json")):
        env: dict[str, Any] = json.loads(found.read_text())
        return env
    return {}


# ----------------------------------------------------------------- figures (pure)


def _median(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if isinstance(v, int | float)]
    return statistics.median(kept) if kept else None


def _server_us_per_move(record: dict[str, Any]) -> float | None:
    """The server tree's CPU over the test (set-up and 300 ms idle included) per move."""
    before, after = record.get("server_before"), record.get("server_after")
    moves = record["result"].get("moves")
    if not before or not after or not moves:
        return None
    return float((after["cpu_s"] - before["cpu_s"]) / moves * 1e6)


def _client_us_per_move(record: dict[str, Any]) -> float | None:
    """The load generator's CPU per move; the bench reports it for `tput` and `fanout`."""
    result = record["result"]
    share = result.get("client_cpu_pct")
    rate = result.get("moves_per_s") or result.get("achieved_moves_per_s")
    if share is None or not rate:
        return None
    return float(share / 100 / rate * 1e6)


def summarize(records: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per server and test: medians of the runs that finished, and how many failed."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for record in records:
        grouped.setdefault((record["server"], record["test"]), []).append(record)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for (server, test), group in grouped.items():
        ok = [r for r in group if not r.get("error") and r.get("result")]
        fan = test == "fanout"

        def lat(r: dict[str, Any], fan: bool = fan) -> dict[str, float]:
            return dict(r["result"]["spectator_lat_ms" if fan else "lat_ms"])

        rss = [r["server_after"].get("VmRSS") for r in ok if r.get("server_after")]
        out.setdefault(server, {})[test] = {
            "runs": len(ok),
            "errors": len(group) - len(ok),
            "moves_per_s": _median(
                r["result"]["achieved_moves_per_s" if fan else "moves_per_s"] for r in ok
            ),
            "p50_ms": _median(lat(r)["p50"] for r in ok),
            "p99_ms": _median(lat(r)["p99"] for r in ok),
            "server_cpu_us_per_move": _median(_server_us_per_move(r) for r in ok),
            "client_cpu_us_per_move": _median(_client_us_per_move(r) for r in ok),
            "server_rss_after_mib": _median(kb / 1024 for kb in rss if kb),
        }
    return out


@dataclass(frozen=True)
class Ratio:
    name: str
    over: tuple[str, str, str, str]  # (server, test, figure) ÷ (server, same test, figure)
    goal: str
    at_least: bool | None  # True: met when ≥ limit; False: when ≤ limit; None: no goal
    limit: float


# Issue #44's acceptance, and the ratio to Colyseus it keeps for reference.
RATIOS = (
    Ratio("tput moves/s, umpire ÷ Colyseus", ("umpire", "colyseus", "tput", "moves_per_s"),
          "≥ 1", True, 1.0),
    Ratio("tput p99, umpire ÷ Colyseus", ("umpire", "colyseus", "tput", "p99_ms"),
          "≤ 1", False, 1.0),
    Ratio("seq p50, umpire ÷ floor --store", ("umpire", "floor", "seq", "p50_ms"),
          "≤ 1.25", False, 1.25),
    Ratio("fanout achieved/s, umpire ÷ Colyseus",
          ("umpire", "colyseus", "fanout", "moves_per_s"), "≥ 1 (no worse)", True, 1.0),
    Ratio("fanout spectator p99, umpire ÷ Colyseus",
          ("umpire", "colyseus", "fanout", "p99_ms"), "≤ 1 (no worse)", False, 1.0),
    Ratio("seq p50, umpire ÷ Colyseus", ("umpire", "colyseus", "seq", "p50_ms"),
          "— (reference: Colyseus keeps moves in memory)", None, 0.0),
)  # fmt: skip


def ratios(summary: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each ratio's value, goal and whether it is met (None: a side did not run)."""
    out: dict[str, dict[str, Any]] = {}
    for ratio in RATIOS:
        top_server, bottom_server, test, figure = ratio.over
        top = summary.get(top_server, {}).get(test, {}).get(figure)
        bottom = summary.get(bottom_server, {}).get(test, {}).get(figure)
        value = top / bottom if top is not None and bottom else None
        met: bool | None = None
        if value is not None and ratio.at_least is not None:
            met = value >= ratio.limit if ratio.at_least else value <= ratio.limit
        shown = None if value is None else round(value, 3)
        out[ratio.name] = {"value": shown, "top": top, "bottom": bottom,
                           "goal": ratio.goal, "met": met}  # fmt: skip
    return out


def _num(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def scenario_rows(summary: dict[str, dict[str, dict[str, Any]]]) -> list[list[str]]:
    """The issue's table: one row a scenario, one column a server (medians)."""
    servers = [s for s in SERVERS if s in summary]

    def cell(server: str, test: str, show: Callable[[dict[str, Any]], str]) -> str:
        got = summary[server].get(test)
        if not got or not got["runs"]:
            return "–" if not got else f"failed ({got['errors']})"
        return show(got) + (f" ({got['errors']} failed)" if got["errors"] else "")

    def rate_p50_p99(g: dict[str, Any]) -> str:
        return f"{_num(g['moves_per_s'])}; {_num(g['p50_ms'], 2)} / {_num(g['p99_ms'], 2)}"

    def rate_p99(g: dict[str, Any]) -> str:
        return f"{_num(g['moves_per_s'])}; {_num(g['p99_ms'], 1)}"

    def achieved_p99(g: dict[str, Any]) -> str:
        return f"{_num(g['moves_per_s'], 1)}; {_num(g['p99_ms'], 1)}"

    def server_cpu(g: dict[str, Any]) -> str:
        return f"{_num(g['server_cpu_us_per_move'])} µs"

    def client_cpu(g: dict[str, Any]) -> str:
        return f"{_num(g['client_cpu_us_per_move'])} µs"

    def rss(g: dict[str, Any]) -> str:
        return f"{_num(g['server_rss_after_mib'])} MiB"

    table = [
        ("seq moves/s; p50 / p99 ms", "seq", rate_p50_p99),
        ("tput moves/s; p99 ms", "tput", rate_p99),
        ("fanout achieved/s; spectator p99 ms", "fanout", achieved_p99),
        ("tput server CPU per move (whole tree: workers + Valkey)", "tput", server_cpu),
        ("tput load generator CPU per move", "tput", client_cpu),
        ("server RSS after tput (whole tree)", "tput", rss),
    ]
    return [[label, *(cell(s, test, show) for s in servers)] for label, test, show in table]


def _short(value: float) -> str:
    """A rate in whole moves, a latency to the hundredth of a millisecond."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:,.2f}"


def ratio_rows(found: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(ratio, measured, goal) with the verdict beside the goal."""
    rows = []
    for name, got in found.items():
        if got["value"] is None:
            measured = "not measured (a side did not run)"
        else:
            measured = f"{_short(got['top'])} ÷ {_short(got['bottom'])} = {got['value']:.2f}"
        verdict = {True: "met", False: "not met", None: ""}[got["met"]]
        rows.append((name, measured, f"{got['goal']} {verdict}".rstrip()))
    return rows


# ----------------------------------------------------------------- the run


def run(servers: Iterable[str], runs: int, quick: bool,
        status: Callable[[str], object] = lambda _: None,
        tests: Iterable[str] = TESTS) -> dict[str, Any]:  # fmt: skip
    """Run the passes (Unavailable when the bench cannot run here); every figure. `tests`:
    the scenarios to run (all three by default; one alone for an alternated comparison)."""
    node, bench, umpire = check()
    status("the peer bench's npm packages (npm ci into our cache, once)…")
    modules = node_modules(bench)
    load_before = os.getloadavg()
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="umpire-peer-bench-"))
    copy = working_copy(bench, modules, folder / "bench")
    records: list[dict[str, Any]] = []
    for one in passes(servers, umpire, str(floor_wrapper(folder)), tests):
        status(f"peer bench: {', '.join(one.labels.values())} × {', '.join(one.tests)}"
               f" × {runs} (log: {copy / 'bench.log'})…")  # fmt: skip
        records += run_pass(node, copy, one, runs, quick)
    summary = summarize(records)
    env = environment(copy)
    return {
        "servers": summary,
        "ratios": ratios(summary),
        "machine": {
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "nproc": env.get("nproc"),
            "cpu_model": env.get("cpu_model"),
            "kernel": env.get("kernel"),
            "node": env.get("node"),
            "python": sys.version.split()[0],
            "seconds": round(time.perf_counter() - started, 1),
        },
        "versions": env.get("versions", {}),
        "options": {
            "runs": runs,
            "quick": quick,
            "umpire_bin": umpire,
            "peer_bench": str(bench),
            "workers": 2,
            "appendfsync": "everysec",
        },
        "results": str(copy / "results"),
    }


def cleanup(results: str) -> None:
    """Remove a run's copy of the bench (its node_modules is only a link)."""
    with contextlib.suppress(OSError):
        shutil.rmtree(Path(results).parents[1])
