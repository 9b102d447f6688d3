"""A/B of this checkout against another, alternated in one run: `python -m bench.ab BASE_DIR`.

Runs `python -m bench --quick` in BASE_DIR and in this checkout in turn (base, branch,
base, branch, ... for `--rounds` rounds), each with its own checkout's interpreter
(`DIR/.venv/bin/python` when there is one), and prints the closed-loop commands/s, the
gateway's CPU per command and the fold rate of every run in two columns, then the median
of each column. Alternating spreads a slow spell of a shared host over both sides.

`--all` prints every numeric figure of the quick bench (its JSON flattened to dotted names),
not only those three: what "every benchmark figure within 5%" is checked against.

`--loop-only` runs just the closed loop (bench/profile.py --cpu-only, 100 games, no
profiler) instead of the whole quick bench: about 15 s a run instead of minutes;
`--ruleset downtown` makes that loop send the peer bench's move (a Downtown `RollDice`):
the load generator is each checkout's own bench (bench/profile.py), so a BASE older than
that option needs this checkout's bench/wsload.py and bench/path.py copied in.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
PROFILE = HERE / "bench" / "profile.py"


def _python(checkout: Path) -> str:
    venv = checkout / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def flatten(figures: Any, prefix: str = "") -> dict[str, float]:
    """Every number in a bench's JSON by dotted name (booleans and text left out)."""
    if isinstance(figures, dict):
        return {
            name: value
            for key, inner in figures.items()
            for name, value in flatten(inner, f"{prefix}{key}.").items()
        }
    if isinstance(figures, int | float) and not isinstance(figures, bool):
        return {prefix.rstrip("."): float(figures)}
    return {}


def quick_bench(checkout: Path, every: bool = False) -> dict[str, float]:
    """One `python -m bench --quick` in `checkout`: the figures compared (`every`: all)."""
    done = subprocess.run(
        [_python(checkout), "-m", "bench", "--quick"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(done.stdout)
    path, core = figures["path"], figures["core"]
    named = {
        "closed loop cmd/s": path["closed_loop_100_games_per_s"],
        "gateway us CPU/cmd": path["gateway_cpu_us_per_command"],
        "fold events/s": core["fold_events_per_s_100k_game"],
        "machine busy": path["closed_loop_cpu"]["machine_busy"],
    }
    return {**named, **flatten(figures)} if every else named


def closed_loop(checkout: Path, seconds: float, ruleset: str = "counter") -> dict[str, float]:
    """The closed loop alone against `checkout`'s gateway, unprofiled."""
    command = [_python(checkout), str(PROFILE), "--cpu-only", "--repo", str(checkout)]
    command += ["--ruleset", ruleset]
    done = subprocess.run(
        [*command, "--seconds", str(seconds)],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"(\d+) commands in the measured loop; gateway CPU ([\d.]+) us", done.stdout)
    if found is None:
        raise RuntimeError(f"unexpected output from {PROFILE.name}: {done.stdout!r}")
    return {
        "closed loop cmd/s": round(int(found.group(1)) / seconds),
        "gateway us CPU/cmd": float(found.group(2)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__)
    parser.add_argument("base", type=Path, help="the other checkout (with its own .venv)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--loop-only", action="store_true")
    parser.add_argument("--all", action="store_true", help="every figure of the quick bench")
    parser.add_argument("--seconds", type=float, default=10.0, help="closed loop (--loop-only)")
    parser.add_argument("--ruleset", default="counter", help="the loop's move (--loop-only)")
    args = parser.parse_args(argv)
    sides = [("base", args.base.resolve()), ("branch", HERE)]
    runs: dict[str, list[dict[str, float]]] = {"base": [], "branch": []}
    for round_ in range(1, args.rounds + 1):
        for name, checkout in sides:
            print(f"round {round_}: {name} ({checkout})", file=sys.stderr, flush=True)
            figures = (
                closed_loop(checkout, args.seconds, args.ruleset)
                if args.loop_only
                else quick_bench(checkout, args.all)
            )
            runs[name].append(figures)
            print(f"  {figures}", file=sys.stderr, flush=True)
    keys = [key for key in runs["base"][0] if all(key in r for r in runs["branch"])]
    width = max(22, *(len(key) for key in keys))
    print(f"{'figure':{width}} | {'base':>28} | {'branch':>28} | branch / base (medians)")
    for key in keys:
        cells = []
        medians = []
        for name in ("base", "branch"):
            values = [r[key] for r in runs[name]]
            medians.append(statistics.median(values))
            cells.append(" / ".join(f"{v:,.4g}" if v < 10 else f"{v:,.0f}" for v in values))
        ratio = medians[1] / medians[0] if medians[0] else float("nan")
        print(f"{key:{width}} | {cells[0]:>28} | {cells[1]:>28} | {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
