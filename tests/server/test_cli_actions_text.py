"""`umpire actions` and `umpire state` as real processes against the suite's Valkey
(issue 28 item 4): every action shown completely, values by name (never a Python repr),
every case of a choice (Nightfighter's exit move), an example that `umpire send` accepts
as printed, and `state --json` that parses."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.support.processes import REPO
from umpire.engine import registry
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.drivers import rulesets

REPR = re.compile(r"<[A-Za-z_][\w.]*: ")  # <Side.A: 'A'>


@pytest.fixture
def umpire(redis_server: EmbeddedRedis, prefix: str):  # type: ignore[no-untyped-def]
    """Run one `umpire` command as a process on the test store: (status, stdout)."""
    env = {**os.environ, "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix,
           "PYTHONPATH": str(REPO), "COLUMNS": "80"}  # fmt: skip

    def run(*argv: str) -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", *argv],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return done.returncode, done.stdout + done.stderr

    return run


def _new_game_and_actions(umpire, name: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """A new game of `name` (its default scenario) and `umpire actions` of it."""
    code, out = umpire("new", name, "--json")
    assert code == 0, out
    game = json.loads(out)["game_id"]
    code, text = umpire("actions", game)
    assert code == 0, text
    return game, text


def _examples(text: str) -> list[dict[str, object]]:
    return [json.loads(line.split("e.g. ", 1)[1]) for line in text.splitlines() if "e.g. {" in line]


@pytest.mark.parametrize("name", rulesets())
def test_actions_text_shows_values_by_name_and_an_example_send_accepts(umpire, name: str) -> None:
    game, text = _new_game_and_actions(umpire, name)
    assert not REPR.search(text), text
    assert "<" not in text, text
    examples = _examples(text)
    own = [e for e in examples if e["type"] not in ("RollDice", "EndGame", "TakeBack")]
    assert own and len(examples) == text.count("\n    e.g. "), text
    # The first of the ruleset's own examples, sent as printed, is accepted.
    code, sent = umpire("send", game, json.dumps(own[0]))
    assert code == 0, (own[0], sent)


def _as_words(text: str) -> list[list[str]]:
    return [shlex.split(line.split("or, as words: ", 1)[1]) for line in text.splitlines()
            if "or, as words: " in line]  # fmt: skip


@pytest.mark.parametrize("name", rulesets())
def test_every_example_is_printed_as_words_too_and_send_takes_them(umpire, name: str) -> None:
    """The player types no JSON: `umpire send GAME TYPE FIELD=VALUE ...` as printed."""
    game, text = _new_game_and_actions(umpire, name)
    examples, words = _examples(text), _as_words(text)
    assert [w[0] for w in words] == [e["type"] for e in examples], text
    own = [w for w in words if w[0] not in ("RollDice", "EndGame", "TakeBack")]
    code, sent = umpire("send", game, *own[0])
    assert code == 0, (own[0], sent)
    assert f"player command {own[0][0]}" in sent, sent
    # A misspelt field is refused, naming the fields the command has; nothing is written.
    code, refused = umpire("send", game, "RollDice", "dice=d6", "purpose=x", "cout=2")
    assert code != 0 and "RollDice has no field 'cout'" in refused, refused
    code, log = umpire("log", game)
    assert "cout" not in log and log.count("player command") == 1, log


def test_nightfighter_exit_move_is_shown_and_state_json_parses(umpire) -> None:
    """A nightfighter near the map edge: its move has two cases, on the map and leaving
    it with `exit`; both are printed. Played there by sending the printed examples."""
    fighter = {"id": "F1", "kind": "Do215B-5", "hex": "1026", "facing": 3, "ai_range": 2}
    code, out = umpire(
        "new", "nightfighter", "--json", "--setup", json.dumps({"fighters": [fighter]})
    )
    assert code == 0, out
    game = json.loads(out)["game_id"]
    for _ in range(6):
        code, text = umpire("actions", game)
        if "MoveFighter" in text:
            break
        first = _examples(text)[0]  # EndPhase, then MoveBombers
        code, sent = umpire("send", game, json.dumps(first))
        assert code == 0, (first, sent)
    block = text.split("MoveFighter  ", 1)[1].split("\n    e.g. ", 1)[0]
    assert "and one of 2 cases:" in block, block
    assert "exit: true (the only choice)" in block, block
    assert "exit (optional, default false): false (the only choice)" in block, block
    code, state = umpire("state", game, "--json")
    assert code == 0 and json.loads(state)["view"]["fighters"], state
    code, readable = umpire("state", game)
    assert code == 0 and game in readable and "Fighters" in readable, readable
    with pytest.raises(json.JSONDecodeError):
        json.loads(readable)


SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


@pytest.mark.parametrize("name", rulesets())
def test_actions_and_scenarios_cite_the_rulebook_by_title_never_a_file_name(
    umpire, name: str
) -> None:
    """Issue 41 item 7: `umpire actions` and `umpire scenarios` cite a rule as `umpire log`
    does, by the seed's title and heading; `--json` keeps the machine-readable citation."""
    game, text = _new_game_and_actions(umpire, name)
    code, listed = umpire("scenarios", name)
    assert code == 0, listed
    for shown in (text, listed):
        assert not SEED_FILE.search(shown), shown
    code, raw = umpire("actions", game, "--json")
    seed = registry.get(name).seed
    assert code == 0 and (not seed or any(seed in a["rule"] for a in json.loads(raw))), raw


SNAKE_KEY = re.compile(r"^\s*(?:- )?[a-z][a-z0-9]*(?:_[a-z0-9]+)+:", re.MULTILINE)


@pytest.mark.parametrize("name", rulesets())
def test_state_shows_the_view_in_the_rules_words(umpire, name: str) -> None:
    """Issue 41 item 2: `umpire state` shows each field by its label and each coded value
    by its name (`Ruleset.labels`), never a snake_case key; `--json` keeps the keys."""
    code, out = umpire("new", name, "--json")
    assert code == 0, out
    game = json.loads(out)["game_id"]
    code, text = umpire("state", game)
    assert code == 0, text
    assert not SNAKE_KEY.search(text), text
    if name == "downtown":
        assert "Visual identifications left (5.6.2): no limit" in text, text
        assert "-1 (default)" in text and "minus_1" not in text, text
        code, raw = umpire("state", game, "--json")
        assert json.loads(raw)["view"]["vid_limit"] == -1
