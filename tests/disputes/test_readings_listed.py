"""Readings as data (issue 40 item 1): `umpire readings RULESET` lists a ruleset's declared
readings as text and JSON, and /rulesets.json carries them for the page."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.processes import REPO
from umpire.engine import registry
from umpire.server.app import Running
from umpire.testing.support.drivers import rulesets
from umpire.testing.support.gateways import http_get

RULESETS = rulesets()


def _umpire(*argv: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", *argv],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_umpire_readings_lists_each_reading_as_text_and_json() -> None:
    code, text = _umpire("readings", "downtown")
    assert code == 0, text
    assert "acq_phase_reading" in text and "default minus_1; alternatives: plus_1" in text
    assert "README.md, Ledger of readings: 3.3.1" in text
    # The rule by its rulebook's title and number, never the seed's file name (issue 41).
    assert "Downtown" in text and "3.3.1" in text and ".txt" not in text, text
    code, out = _umpire("readings", "conflict_of_heroes", "--json")
    assert code == 0, out
    (listed,) = json.loads(out)
    assert listed["name"] == "sideways_moves"
    assert listed["default"] is False and listed["alternatives"] == [True]
    assert listed["rule"].endswith(" 5.3")


def test_an_unknown_ruleset_is_refused() -> None:
    code, out = _umpire("readings", "no_such_ruleset")
    assert code == 2 and "no_such_ruleset" in out


async def test_rulesets_json_carries_the_readings(gateway: Running) -> None:
    status, body = await http_get(gateway.port, "/rulesets.json")
    assert status == 200
    by_name = {r["name"]: r for r in json.loads(body)}
    for name in ("age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown",
                 "nightfighter"):  # fmt: skip
        names = [r["name"] for r in by_name[name]["readings"]]
        assert names == [r.name for r in registry.get(name).readings] and names, name
