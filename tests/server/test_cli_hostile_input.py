"""Issue 32, item 5: whatever a player wrote is printed inert by every command, and every
file the command line reads gives one typed line for any malformed content.

All through the real `umpire` command line (a subprocess) on the suite's Valkey: a game
whose roll purpose and result hold C0/C1 controls, every bidirectional control and rich
emoji codes; `state` (it printed the result raw), `export` to stdout (raw C1 and bidi),
and the emoji codes in log, explain, send, replay, watch and play. Then malformed setup and
export files (deep nesting, a 100,000-digit integer, UTF-16, binary), and an export whose
header names another game or another seed than its events.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import REPO, start_gateway
from umpire.events.wire import Action
from umpire.server.actions_command import printed
from umpire.server.embedded import EmbeddedRedis

# Every class of character a terminal acts on, and rich's emoji and markup codes.
HOSTILE = (
    "\x1b[2J\x1b]0;pwned\x07 \x9b31m \x85 \u202eevil\u202c \u2066iso\u2069 \u200f \u061c "
    "\u2028 :skull: :red_heart: [red]x[/red]"
)
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf]")


class Umpire:
    """`umpire ARGS` as a subprocess on the suite's store, under one prefix."""

    def __init__(self, redis: EmbeddedRedis, prefix: str, tmp: Path) -> None:
        self.env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis.url,
                    "UMPIRE_PREFIX": prefix, "COLUMNS": "400", "TERM": "xterm-256color",
                    "UMPIRE_DATA_DIR": str(tmp / "data"),
                    "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET"}  # fmt: skip

    def __call__(self, *argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", *argv], input=stdin,
            capture_output=True, text=True, timeout=120, env=self.env, cwd=REPO,
            encoding="utf-8", errors="surrogateescape",
        )  # fmt: skip

    def ok(self, *argv: str, stdin: str | None = None) -> str:
        done = self(*argv, stdin=stdin)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr


def _inert(name: str, output: str) -> None:
    assert not UNSAFE.findall(output), f"umpire {name} printed {UNSAFE.findall(output)!r}"
    assert not EMOJI.findall(output), f"umpire {name} rendered {EMOJI.findall(output)!r}"


@pytest.fixture
def umpire(redis_server: EmbeddedRedis, prefix: str, tmp_path: Path) -> Umpire:
    return Umpire(redis_server, prefix, tmp_path)


def _game(umpire: Umpire) -> str:
    created = json.loads(umpire.ok("new", "counter", "--json", "--setup", '{"target": 1000}'))
    return str(created["game_id"])


def test_player_text_is_inert_in_every_command(
    umpire: Umpire, redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails on main: `state` and `replay` printed the result raw, `export` wrote raw C1 and
    # bidi, and :skull: became a skull in log, explain, send, replay, watch and play.
    game = _game(umpire)
    roll = {"type": "RollDice", "dice": "d6", "purpose": HOSTILE}
    outputs = {"send": umpire.ok("send", game, json.dumps(roll))}
    outputs["send EndGame"] = umpire.ok("send", game, json.dumps({"type": "EndGame",
                                                                  "result": HOSTILE}))  # fmt: skip
    export = tmp_path / "game.jsonl"
    head = json.loads(umpire.ok("state", game, "--json"))["seq"]
    outputs |= {
        "state": umpire.ok("state", game),
        "state --json": umpire.ok("state", game, "--json"),
        "log": umpire.ok("log", game),
        "log --json": umpire.ok("log", game, "--json"),
        "explain": umpire.ok("explain", game, "3"),
        "replay": umpire.ok("replay", game, "--at", "3"),
        "replay --diff": umpire.ok("replay", game, "--diff", "1", "3"),
        "replay, ended": umpire.ok("replay", game, "--at", str(head)),
        "audit": umpire.ok("audit", game),
        "export": umpire.ok("export", game),
        "export -o": umpire.ok("export", game, "-o", str(export)),
        "audit --file": umpire.ok("audit", "--file", str(export)),
    }
    outputs["export file"] = export.read_text(encoding="utf-8")
    gateway, port = start_gateway(redis_server.url, prefix)
    try:
        url = f"ws://127.0.0.1:{port}/ws"
        other = json.loads(umpire.ok("new", "counter", "--json", "--setup", '{"target": 1000}'))
        outputs["play"] = umpire.ok("play", "--url", url, "--credential",
                                    other["player_credential"],
                                    stdin=json.dumps(roll) + "\n")  # fmt: skip
        outputs["watch"] = umpire.ok("watch", "--url", url, "--limit", "3", "--credential",
                                     other["spectator_credential"])  # fmt: skip
    finally:
        gateway.terminate()
        gateway.wait(20)
    for name, output in outputs.items():
        _inert(name, output)
    for name in ("state", "log", "explain", "send", "play", "watch", "replay, ended"):
        assert ":skull:" in outputs[name] and "\\x1b[2J" in outputs[name], name
    lines = outputs["export"].splitlines()
    rolls = [json.loads(x)["payload"] for x in lines[1:] if '"DiceRolled"' in x]
    assert rolls[0]["purpose"] == HOSTILE  # escaped in JSON, not changed
    imported = Umpire.__new__(Umpire)
    imported.env = {**umpire.env, "UMPIRE_PREFIX": umpire.env["UMPIRE_PREFIX"] + "i"}
    _inert("import", imported.ok("import", str(export)))


DEEP = 100_000
BAD_CONTENT: dict[str, bytes] = {
    "deep JSON": ('{"target": ' + "[" * DEEP + "]" * DEEP + "}").encode(),
    "a 100,000-digit integer": ('{"target": 1' + "0" * DEEP + "}").encode(),
    "UTF-16": json.dumps({"target": 10}).encode("utf-16"),
    "binary": bytes(range(256)) * 4,
}


def _one_typed_line(done: subprocess.CompletedProcess[str], what: str) -> None:
    assert done.returncode == 2, (what, done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, (what, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error ("), (what, lines[:5])
    _inert(what, done.stderr)


@pytest.mark.parametrize("what", [*BAD_CONTENT, "deep TOML"])
def test_a_malformed_setup_file_is_one_typed_line(
    umpire: Umpire, tmp_path: Path, what: str
) -> None:
    # Fails on main: RecursionError, ValueError (int digits) and UnicodeDecodeError
    # tracebacks.
    if what == "deep TOML":
        path, content = tmp_path / "setup.toml", ("target = " + "[" * DEEP + "]" * DEEP).encode()
    else:
        path, content = tmp_path / "setup.json", BAD_CONTENT[what]
    path.write_bytes(content)
    _one_typed_line(umpire("new", "counter", "--setup", str(path)), what)


def _export(umpire: Umpire, tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    game = _game(umpire)
    umpire.ok("send", game, json.dumps({"type": "RollDice", "dice": "d6", "purpose": "p"}))
    umpire.ok("reveal", game)
    path = tmp_path / "good.jsonl"
    umpire.ok("export", game, "-o", str(path))
    return path, [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("command", [("import",), ("audit", "--file")])
def test_a_malformed_export_is_one_typed_line(
    umpire: Umpire, tmp_path: Path, command: tuple[str, ...]
) -> None:
    good, records = _export(umpire, tmp_path)
    header, rest = records[0], good.read_text().splitlines()[1:]
    huge = json.dumps({**header, "events": 0}).replace('"events": 0', '"events": 1' + "0" * DEEP)
    contents = {
        "deep JSON header": ("[" * DEEP + "]" * DEEP + "\n").encode(),
        "deep JSON event": f'{json.dumps(header)}\n{{"seq": {"[" * DEEP}{"]" * DEEP}}}\n'.encode(),
        "a 100,000-digit integer": "\n".join([huge, *rest]).encode(),
        "UTF-16": good.read_text().encode("utf-16"),
        "binary": bytes(range(256)) * 4,
    }
    for what, content in contents.items():
        path = tmp_path / "bad.jsonl"
        path.write_bytes(content)
        _one_typed_line(umpire(*command, str(path)), f"{command} {what}")


def test_audit_file_checks_the_header_against_the_events(umpire: Umpire, tmp_path: Path) -> None:
    # Fails on main: OK printed for an export whose header names another game or seed.
    good, records = _export(umpire, tmp_path)
    lines = good.read_text().splitlines()
    assert umpire("audit", "--file", str(good)).returncode == 0
    for field, value in (("game_id", "another-game"), ("seed", "ab" * 32)):
        path = tmp_path / f"header-{field}.jsonl"
        path.write_text("\n".join([json.dumps({**records[0], field: value}), *lines[1:]]) + "\n")
        done = umpire("audit", "--file", str(path))
        assert done.returncode != 0, (field, done.stdout)
        assert "header" in (done.stdout + done.stderr), (field, done.stdout + done.stderr)


def test_actions_show_the_values_players_chose_inert() -> None:
    # Legal actions list ids a player chose (Downtown's US flight ids are free text):
    # `umpire actions` prints them through shown() (on main, escape() for markup, with the
    # controls left to describe()'s quoting).
    schema = {"type": "object", "properties": {"flight_id": {"enum": [HOSTILE]}}}
    action = Action(type="CheckActivation", rule="r", description="d", schema=schema)
    _inert("actions", "\n".join(printed(action)))
