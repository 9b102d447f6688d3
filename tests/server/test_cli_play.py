"""Sitting down to play from the terminal: `umpire new` with no options starts every
ruleset's default scenario and prints the credentials and a viewer link; `umpire scenarios`
lists what ships; a player's own setup file (JSON or TOML) loads, and a bad one is refused
naming the field and what is allowed."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from umpire.engine import registry
from umpire.server.cli import main
from umpire.server.embedded import EmbeddedRedis


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis, prefix: str) -> str:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    return prefix


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, " ".join(out.err.split())  # rich wraps stderr


@pytest.mark.parametrize("ruleset", registry.shipped())
def test_new_with_no_options_starts_the_default_scenario(
    cli_env: str, capsys: pytest.CaptureFixture[str], ruleset: str
) -> None:
    code, out, err = run(capsys, "new", ruleset, "--json")
    assert code == 0, err
    created = json.loads(out)
    assert created["scenario"] == registry.get(ruleset).default_scenario
    game = created["game_id"]
    assert created["player_credential"].startswith(game + ".")
    assert created["spectator_credential"].startswith(game + ".")
    fragment = parse_qs(urlsplit(created["viewer"]).fragment)
    assert fragment == {"game": [game], "credential": [created["player_credential"]]}
    assert "?" not in created["viewer"], "the credential stays in the fragment"
    code, out, _ = run(capsys, "state", game)
    assert code == 0 and out.strip()


def test_new_prints_the_credentials_for_people(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "new", "nightfighter")
    assert code == 0
    assert "scenario 4B" in out and "player credential" in out and "spectator credential" in out
    assert "#game=" in out and "&credential=" in out


def test_scenarios_lists_name_description_and_source(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "scenarios", "downtown", "--json")
    listed = json.loads(out)
    assert code == 0 and [s["name"] for s in listed][:3] == ["D1", "D2", "D3"]
    assert all(s["description"] and s["source"] for s in listed)
    code, out, _ = run(capsys, "scenarios", "nightfighter")
    assert code == 0 and "4B" in out and "EXAMPLE OF PLAY" in out
    code, out, _ = run(capsys, "scenarios", "nightfighter", "--schema")
    schema = json.loads(out)
    assert code == 0 and "bombers" in schema["$defs"]["Setup"]["properties"]


def test_new_with_a_scenario_and_an_unknown_one(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "new", "down_in_flames", "--scenario", "bomber-escort", "--json")
    assert code == 0 and json.loads(out)["scenario"] == "bomber-escort"
    code, _, err = run(capsys, "new", "down_in_flames", "--scenario", "nope")
    assert code == 2 and "unknown_scenario" in err and "bomber-escort" in err and "duel" in err


def test_a_setup_file_of_the_players_own(
    cli_env: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    toml = tmp_path / "dogfight.toml"
    toml.write_text(
        'starting_altitude = 6\n\n[[aircraft]]\nid = "a1"\naircraft = "Spitfire"\nside = "A"\n'
        'element = "A"\nstation = "leader"\n\n[[aircraft]]\nid = "b1"\naircraft = "Bf 109"\n'
        'side = "B"\nelement = "B"\nstation = "leader"\n'
    )
    code, out, err = run(capsys, "new", "down_in_flames", "--setup", str(toml), "--json")
    assert code == 0, err
    assert json.loads(out)["scenario"] is None
    overlay = tmp_path / "card.json"
    overlay.write_text(json.dumps({"starting_altitude": 9}))  # no aircraft: the scenario's
    code, out, err = run(capsys, "new", "down_in_flames", "--scenario", "duel", "--setup",
                         str(overlay), "--json")  # fmt: skip
    assert code == 0, err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"visibility": "foggy"}))
    code, _, err = run(capsys, "new", "nightfighter", "--setup", str(bad))
    assert code == 2 and "$.visibility" in err and '"good", "moderate", "poor"' in err
    bad.write_text(json.dumps({"bombers": [{"id": "B1", "turn": 0}]}))
    code, _, err = run(capsys, "new", "nightfighter", "--setup", str(bad))
    assert code == 2 and "$.bombers[0].turn" in err and ">= 1" in err and "<= 99" in err
    bad.write_text(json.dumps({"bomberz": []}))
    code, _, err = run(capsys, "new", "nightfighter", "--setup", str(bad))
    assert code == 2 and "'bomberz'" in err and "bombers" in err and "fighters" in err
    code, _, err = run(capsys, "new", "nightfighter", "--setup", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
    bad.write_text("{")
    code, _, err = run(capsys, "new", "nightfighter", "--setup", str(bad))
    assert code == 2 and "not valid JSON" in err
