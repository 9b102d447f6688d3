"""`python -m bench`: run every benchmark, print JSON on stdout, then a table on stderr.

`python -m bench --quick` runs each stage at a fifth of its size (a smoke run, ~1 minute).
`python -m bench cli` measures only how long the command line takes to answer
(`umpire new`, `state`, `actions`, `send`, `log` and `--help`, wall and CPU, with the
machine's load; bench/core.py `cli_start`).
`python -m bench footprint` reads `umpire serve`'s whole process tree (parent, workers,
Valkey; bench/footprint.py).
`python -m bench stages [--fsync everysec|always|both]` runs the peer-shaped stages
(bench/stages.py), `python -m bench workers` the closed loop against `umpire serve
--workers N` for N = 1, 2 (and 4 on four cores or more; bench/workers.py); `--seconds`
shortens their timed stages (20 s and 10 s by default).
`python -m bench peer [--runs N] [--servers umpire,floor,colyseus,boardgame.io]` runs the
shared peer bench (`../shared/peer-bench`, or `UMPIRE_PEER_BENCH`) when Node is present and
prints issue #44's ratios beside their goals (bench/peer.py); `--quick` at its smallest sizes.
`python -m bench viewer_open [--runs N] [--quick]` opens 100-, 1,000- and 10,000-event
games from their links in Chromium (bench/viewer_open.py).
The speeds the tests leave to benches (no test asserts a duration, a rate or a CPU share),
each beside its goal: `python -m bench ai_turn` another game's round trip during the
largest AI turns (bench/ai_turn.py), `outage` how soon a request is refused when the store
is away (bench/outage.py), `hostile_clients` a client's round trip beside peers that
misbehave at the socket (bench/hostile_clients.py), `cluster_follow` how soon a feed
delivers after its slot moved master (bench/cluster_follow.py), `cpu_quota` the share a
busy loop held to a quota gets (bench/cpu_quota.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from bench import (
    ai_turn,
    cluster_follow,
    core,
    cpu_quota,
    footprint,
    hostile,
    hostile_clients,
    outage,
    path,
    peer,
    stages,
    viewer_open,
    workers,
)

# The speeds the tests leave to benches: name -> (what it runs, its rows, its title).
CONDITIONS: dict[str, tuple[Callable[[], Any], Callable[[dict[str, Any]], list[Any]], str]] = {
    "ai_turn": (lambda: asyncio.run(ai_turn.run()), ai_turn.rows,
                "another game during the largest AI turns"),
    "outage": (lambda: asyncio.run(outage.run()), outage.rows, "the store away"),
    "hostile_clients": (lambda: asyncio.run(hostile_clients.run()), hostile_clients.rows,
                        "a client beside peers that misbehave at the socket"),
    "cluster_follow": (lambda: asyncio.run(cluster_follow.run()), cluster_follow.rows,
                       "a feed following its slot to another master"),
    "cpu_quota": (cpu_quota.measure, cpu_quota.rows, "a CPU quota holding a busy loop"),
}  # fmt: skip


def _loop_policy() -> str:
    try:
        import uvloop  # type: ignore[import-not-found]
    except ImportError:
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal or limit beside it) for the table."""
    c, p, k = figures["core"], figures["path"], figures["cluster"]
    rt, st = p["round_trip_1000_per_s"], p["step"]
    f1, fm = p["fan_out_1_game_1000_subscribers"], p["fan_out_1000_games_1_subscriber"]
    idle, cu = p["idle_memory"], p["catch_up_100k"]
    krt = k["round_trip_1000_per_s_two_gateways"]
    raw = c["raw_pipelined_xadd_events_per_s"]
    return [
        ("raw pipelined XADD (the limit)", f"{raw:,} events/s", "—"),
        (
            "append, 10-event commands",
            f"{c['append_10_event_commands_events_per_s']:,} events/s "
            f"({c['append_10_ratio_to_raw']:.2f} of raw)",
            "≥ 0.50 of raw",
        ),
        (
            "append, 1-event commands",
            f"{c['append_1_event_commands_events_per_s']:,} events/s "
            f"({c['append_1_ratio_to_raw']:.2f} of raw)",
            "— (one round trip each)",
        ),
        (
            "append, 1-event commands, acknowledged on disk",
            f"{c['append_1_event_waitaof_everysec_events_per_s']:,} events/s (everysec + "
            f"WAITAOF) / {c['append_1_event_appendfsync_always_events_per_s']:,} (always)",
            "— (the durability settings compared)",
        ),
        ("fold, 100,000-event game", f"{c['fold_events_per_s_100k_game']:,} events/s", "≥ 200,000"),
        *cli_rows(c["cli_start"]),
        *(footprint.rows(figures["footprint"]) if "footprint" in figures else []),
        (
            "round trip @ 1,000 cmd/s, 100 games",
            f"p50 {rt['p50_ms']} / p99 {rt['p99_ms']} / p99.9 {rt['p999_ms']} ms",
            "p99 < 10 ms",
        ),
        (
            "highest offered load with p99 < 10 ms",
            f"{st['highest_load_with_p99_under_10ms_per_s']:,.0f} cmd/s",
            "— (the throughput goal is the row below)",
        ),
        (
            "closed loop, 100 games, 1 in flight each",
            f"{p['closed_loop_100_games_per_s']:,} cmd/s; gateway "
            f"{p['closed_loop_cpu']['gateway_cores']} cores, "
            f"{p['gateway_cpu_us_per_command']} µs CPU per command",
            f"≥ 5,000 cmd/s; limit: 1 core / CPU per command = "
            f"{1e6 / p['gateway_cpu_us_per_command']:,.0f} cmd/s "
            f"(machine busy {p['closed_loop_cpu']['machine_busy']:.0%})",
        ),
        (
            "fan-out: 1 game → 1,000 subscribers",
            f"p50 {f1['p50_ms']} / p99 {f1['p99_ms']} ms ({f1['delivered']:,}/{f1['expected']:,})",
            "p99 < 100 ms",
        ),
        (
            "events delivered by one gateway (1 game, 1,000 subscribers)",
            f"{p['delivery_throughput']['events_per_s_delivered']:,} events/s "
            f"({p['delivery_throughput']['frames_delivered']:,}/"
            f"{p['delivery_throughput']['frames_expected']:,})",
            f"— limit: gateway {p['delivery_throughput']['gateway_cores']} cores, machine "
            f"busy {p['delivery_throughput']['machine_busy']:.0%}",
        ),
        (
            "fan-out: 1,000 games × 1 subscriber",
            f"p50 {fm['p50_ms']} / p99 {fm['p99_ms']} ms ({fm['delivered']:,}/{fm['expected']:,})",
            "p99 < 100 ms",
        ),
        (
            "gateway GC by then: collections (gen 0/1/2), longest gen-2 pause",
            f"{'/'.join(str(int(n)) for n in p['gateway_gc']['collections'])}, "
            f"{p['gateway_gc']['longest_pause_s'][2] * 1000:.1f} ms",
            "— (a floor under the latency tails above)",
        ),
        (
            f"catch-up of a new subscriber, {cu['events']:,} events",
            f"{cu['seconds']} s ({cu['events_per_s']:,} events/s)",
            f"fold {c['fold_events_per_s_100k_game']:,} events/s",
        ),
        (
            "memory per idle connection",
            f"{idle['bytes_per_idle_connection']:,} B; gateway RSS with 10,000 idle: "
            f"{idle['rss_with_10000_idle_mib']:,} MiB"
            f" ({'measured' if idle['measured_at_10000'] else 'projected'})",
            "10,000 in < 1 GiB",
        ),
        ("memory per active game", f"{p['memory_per_active_game_bytes']:,} B", "—"),
        (
            "cluster (3 masters, 2 gateways) round trip @ 1,000 cmd/s",
            f"p50 {krt['p50_ms']} / p99 {krt['p99_ms']} / p99.9 {krt['p999_ms']} ms",
            "p99 < 10 ms",
        ),
        (
            "cluster closed loop: 1 gateway → 2 gateways",
            f"{k['closed_loop_one_gateway_per_s']:,} → {k['closed_loop_two_gateways_per_s']:,}"
            f" cmd/s (×{k['scaling_two_over_one']}); gateway cores "
            f"{k['cpu_one_gateway']['gateway_cores']} → {k['cpu_two_gateways']['gateway_cores']}",
            f"close to ×2; limit: machine busy {k['cpu_one_gateway']['machine_busy']:.0%}"
            f" → {k['cpu_two_gateways']['machine_busy']:.0%} of {os.cpu_count()} cores",
        ),
        (
            "cluster: commands per gateway core, 1 → 2 gateways",
            f"{k['commands_per_gateway_core_one']:,} → {k['commands_per_gateway_core_two']:,}"
            f" (×{k['scaling_per_gateway_core']})",
            "×1.0 = linear in gateway CPU",
        ),
        _equal_quota_row(k["equal_quota"]),
    ]


def cli_rows(cli: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The command line's start: median wall and CPU of each command, beside the goal and
    the machine's load (a loaded machine's wall time is mostly waiting for a core)."""
    goal = f"< {cli['goal_wall_s']} s wall (quiet machine; load now {cli['machine_load_1min']})"
    shown = {"new": "new RULESET", "state": "state GAME", "actions": "actions GAME",
             "send": "send GAME", "log": "log GAME", "help": "--help"}  # fmt: skip
    return [
        (
            f"CLI start: umpire {shown[name]} (median of {cli['runs']})",
            f"{cli[name]['median_wall_s']:.3f} s wall, {cli[name]['median_cpu_s']:.3f} s CPU",
            goal,
        )
        for name in shown
        if name in cli
    ]


def _equal_quota_row(q: dict[str, Any]) -> tuple[str, str, str]:
    if not q["measured"]:
        return ("cluster, gateways at equal CPU quotas", "not measured", q["why_not"])
    return (
        f"cluster closed loop, each gateway held to {q['cores_per_gateway']} cores: 1 → 2",
        f"{q['one_gateway_per_s']:,} → {q['two_gateways_per_s']:,} cmd/s "
        f"(×{q['scaling_two_over_one']}); gateway cores {q['cpu_one_gateway']['gateway_cores']}"
        f" → {q['cpu_two_gateways']['gateway_cores']}",
        f"close to ×2; machine busy {q['cpu_one_gateway']['machine_busy']:.0%} → "
        f"{q['cpu_two_gateways']['machine_busy']:.0%}",
    )


def _table(title: str, rows: list[tuple[str, str, str]]) -> Table:
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("measured", justify="right")
    table.add_column("goal / limit")
    for row in rows:
        table.add_row(*row)
    return table


def _machine(loop: str, started: float) -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "event_loop": loop,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _stages(args: argparse.Namespace, loop: str, console: Console) -> int:
    started = time.perf_counter()
    settings = ["everysec", "always"] if args.fsync == "both" else [args.fsync]
    seconds = args.seconds or 20.0
    figures: dict[str, Any] = {}
    for fsync in settings:
        with console.status(f"stages (a), (b), (c) with appendfsync {fsync}…"):
            figures[fsync] = asyncio.run(stages.run(fsync, seconds, workers=args.workers))
    figures["machine"] = _machine(loop, started)
    print(json.dumps(figures, indent=2))
    for fsync in settings:
        title = (
            f"umpire stages, appendfsync {fsync}, --workers {args.workers} "
            f"({os.cpu_count()} CPUs, {loop})"
        )
        console.print(_table(title, stages.rows(figures[fsync])))
    return 0


def _workers(args: argparse.Namespace, loop: str, console: Console) -> int:
    started = time.perf_counter()
    with console.status("closed loop against umpire serve --workers N…"):
        figures = asyncio.run(workers.run(args.seconds or 10.0))
    figures["machine"] = _machine(loop, started)
    print(json.dumps(figures, indent=2))
    title = f"umpire serve --workers N, closed loop ({os.cpu_count()} CPUs, {loop})"
    console.print(_table(title, workers.rows(figures)))
    return 0


def _peer(args: argparse.Namespace, console: Console) -> int:
    try:
        with console.status("the peer bench…") as status:
            figures = peer.run(args.servers.split(","), args.runs, args.quick, status.update,
                               tests=args.tests.split(","))  # fmt: skip
    except peer.Unavailable as why:
        print(f"peer: not run: {why}", file=sys.stderr)
        return 0
    print(json.dumps(figures, indent=2))
    m = figures["machine"]
    load = (
        f"load {'/'.join(map(str, m['load_before']))} before, "
        f"{'/'.join(map(str, m['load_after']))} after"
    )
    table = Table(
        title=f"peer bench, medians of {args.runs} (umpire everysec, 2 workers; "
        f"{m['nproc']} CPUs, Node {m['node']}; {load})"
    )
    table.add_column("scenario")
    for server in (s for s in peer.SERVERS if s in figures["servers"]):
        table.add_column("floor --store" if server == "floor" else server, justify="right")
    for row in peer.scenario_rows(figures["servers"]):
        table.add_row(*row)
    console.print(table)
    console.print(_table("issue #44's ratios (this run)", peer.ratio_rows(figures["ratios"])))
    console.print(f"per-run detail: {figures['results']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "what", nargs="?", default="all",
        choices=["all", "stages", "workers", "hostile", "cli", "footprint", "peer",
                 "viewer_open", *CONDITIONS],
        help="all: the whole benchmark; stages: bench/stages.py; workers: bench/workers.py; "
        "hostile: only the player's round trip under 20 hostile connections; "
        "cli: only the command line's start; footprint: umpire serve's whole process tree; "
        "peer: the shared peer bench beside Colyseus, with issue #44's ratios; "
        "viewer_open: the browser table opening long games (bench/viewer_open.py); "
        "ai_turn, outage, hostile_clients, cluster_follow, cpu_quota: the speeds the tests "
        "leave to benches",
    )  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="a fifth of each stage")
    parser.add_argument(
        "--fsync", default="both", choices=["everysec", "always", "both"],
        help="stages: the embedded Valkey's appendfsync",
    )  # fmt: skip
    parser.add_argument("--seconds", type=float, help="stages, workers: timed stages' length")
    parser.add_argument(
        "--workers", type=int, default=1, help="stages: the gateway's --workers (default 1)"
    )
    parser.add_argument("--runs", type=int, default=2, help="peer: repetitions (medians)")
    parser.add_argument(
        "--servers", default=",".join(peer.SERVERS),
        help="peer: which of umpire, floor, colyseus, boardgame.io to run",
    )  # fmt: skip
    parser.add_argument(
        "--tests", default=",".join(peer.TESTS),
        help="peer: which of seq, tput, fanout to run (one alone for an alternated run)",
    )  # fmt: skip
    args, rest = parser.parse_known_args(argv)
    if args.what == "viewer_open":  # its own options, its own report
        runs = ["--runs", str(args.runs)] if "--runs" in (argv or sys.argv) else []
        return viewer_open.main(rest + runs + (["--quick"] if args.quick else []))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    unknown = sorted(set(args.tests.split(",")) - set(peer.TESTS))
    if unknown:
        parser.error(f"--tests: unknown {', '.join(unknown)}; choose from {', '.join(peer.TESTS)}")
    loop = _loop_policy()
    if args.what == "hostile":
        seconds = 6.0 if args.quick else 30.0
        figures = asyncio.run(hostile.run(seconds=seconds, quiet=seconds / 3))
        print(json.dumps({**figures, "event_loop": loop}, indent=2))
        print(hostile.report(figures), file=sys.stderr)
        return 0
    console = Console(stderr=True)
    if args.what in CONDITIONS:
        measure, table_rows, title = CONDITIONS[args.what]
        with console.status(f"{args.what}: {title}…"):
            measured = measure()
        print(json.dumps({args.what: measured, "event_loop": loop}, indent=2))
        console.print(_table(f"{title} ({os.cpu_count()} CPUs, {loop})", table_rows(measured)))
        return 0
    if args.what == "cli":
        with console.status(
            "timing the command line (umpire new, state, actions, send, log, --help)…"
        ):
            cli = core.cli_start()
        print(json.dumps({"cli_start": cli, "event_loop": loop}, indent=2))
        console.print(_table(f"umpire command line ({os.cpu_count()} CPUs)", cli_rows(cli)))
        return 0
    if args.what == "footprint":
        with console.status("umpire serve's whole process tree: idle, then 100 games…"):
            tree = asyncio.run(footprint.run(seconds=args.seconds or 10.0))
        print(json.dumps({"footprint": tree, "event_loop": loop}, indent=2))
        console.print(
            _table(f"umpire serve's footprint ({os.cpu_count()} CPUs)", footprint.rows(tree))
        )
        return 0
    if args.what == "peer":
        return _peer(args, console)
    if args.what == "stages":
        return _stages(args, loop, console)
    if args.what == "workers":
        return _workers(args, loop, console)
    started = time.perf_counter()
    figures: dict[str, Any] = {}
    with console.status("measuring the core log (append, raw XADD, fold)…") as status:
        figures["core"] = asyncio.run(core.run())
        figures["path"] = asyncio.run(path.single(status.update, quick=args.quick))
        figures["cluster"] = asyncio.run(path.cluster(status.update, quick=args.quick))
        status.update("umpire serve's whole process tree…")
        figures["footprint"] = asyncio.run(footprint.run(seconds=2.0 if args.quick else 10.0))
    figures["machine"] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "event_loop": loop,
        "quick": args.quick,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(figures, indent=2))
    table = Table(title=f"umpire benchmarks ({os.cpu_count()} CPUs, {loop})")
    table.add_column("figure")
    table.add_column("measured", justify="right")
    table.add_column("goal / limit")
    for row in rows(figures):
        table.add_row(*row)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
