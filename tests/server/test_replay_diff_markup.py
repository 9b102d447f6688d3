"""Player text in a view is printed inert by `umpire replay --diff` too.

`replay --diff` says each change in a table (server/render.py `change_said`), and rich
parses markup in a table's cells: a Downtown flight the player named `[/]` stopped the
command with rich's MarkupError (a traceback), and one named `[red]x[/red]` or
`[link=http://e.vil]y[/link]` was shown as `x` and `y`, coloured and linked, where every
other command shows what the player wrote (events/terminal_text.py). All through the real
`umpire` command line (a subprocess) on the suite's Valkey.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO
from umpire.server.embedded import EmbeddedRedis

# A closing tag with nothing to close (rich raises), a colour and a hyperlink.
NAMES = ("[/]", "[red]x[/red]", "[link=http://e.vil]y[/link]")


def _umpire(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", *argv], capture_output=True, text=True,
        timeout=120, env=env, cwd=REPO,
    )  # fmt: skip


def _ok(env: dict[str, str], *argv: str) -> str:
    done = _umpire(env, *argv)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_replay_diff_shows_a_players_markup_as_written(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis_server.url,
           "UMPIRE_PREFIX": prefix, "COLUMNS": "400", "TERM": "xterm-256color",
           "UMPIRE_DATA_DIR": str(tmp_path / "data")}  # fmt: skip
    game = json.loads(_ok(env, "new", "downtown", "--json"))["game_id"]
    flights = [
        {"id": name, "mission": "strike", "task": "bombing", "hex": "0120", "bomber": True}
        for name in NAMES
    ]
    for command in ("DeployGroundUnits", "CheckDrvRadar",
                    "DeployDrvAir early_warning=good placement=in_the_air"):  # fmt: skip
        _ok(env, "send", game, *command.split())
    _ok(env, "send", game, json.dumps({"type": "ReportUsFlights", "flights": flights}))
    head = json.loads(_ok(env, "state", game, "--json"))["seq"]
    done = _umpire(env, "replay", game, "--diff", "1", str(head))
    assert done.returncode == 0, done.stdout + done.stderr
    for name in NAMES:
        assert name in done.stdout, f"{name!r} is not shown as written:\n{done.stdout}"
