"""One Valkey per data directory, enforced by the OS lock (server/data_dir.py).

On main, a CLI command run while the embedded Valkey was stopped (SIGSTOP) found no
answer within 0.5 s, started a second Valkey on the same data directory and AOF and took
over `redis.url`: the gateway and the CLI then wrote to different servers and a restart
lost acknowledged commands. Here every store-touching command waits for the one server,
no second Valkey is ever started, and after SIGCONT (and after a restart of `umpire
serve`) the gateway and the CLI see one log holding every acknowledged command once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.embedded_site import cli, run_cli, start_serve, stop, valkey_pids
from tests.support.waiting import until
from umpire.server.config import from_env
from umpire.server.data_dir import USERS_FILE, ServerUse
from umpire.server.store_access import open_store
from umpire.testing.support.peer import Peer


def add(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


def holds_open(pid: int, path: Path) -> bool:
    """Whether process `pid` has `path` open (a CLI command holds `users.lock` open while
    it asks the server for a PING, server/store_access.py `command_store_url`)."""
    fds = Path(f"/proc/{pid}/fd")
    for fd in fds.iterdir() if fds.exists() else ():
        try:
            if os.readlink(fd) == str(path):
                return True
        except OSError:  # closed meanwhile, or the process ended
            continue
    return False


class Attempts:
    """Counts, per process, the times it was seen taking `path` up again (each a new PING
    of the server after the last went unanswered)."""

    def __init__(self, path: Path, processes: dict[str, subprocess.Popen[str]]) -> None:
        self.path = path.resolve()
        self.processes = processes
        self.holding = dict.fromkeys(processes, False)
        self.seen = dict.fromkeys(processes, 0)

    def at_least(self, times: int) -> bool:
        """Look once more; whether every process was seen taking it up `times` times."""
        for name, process in self.processes.items():
            holding = holds_open(process.pid, self.path)
            if holding and not self.holding[name]:
                self.seen[name] += 1
            self.holding[name] = holding
        return all(seen >= times for seen in self.seen.values())


# The referee's log (export lines, with command ids): `umpire log` prints the player's view
# unless the operator token is given.
OPERATOR_TOKEN = "split-test-operator-token"


def log_lines(data_dir: Path, gid: str) -> list[dict[str, Any]]:
    code, out, err = run_cli(
        data_dir, "log", gid, "--json", "--as", "referee", UMPIRE_OPERATOR_TOKEN=OPERATOR_TOKEN
    )
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def recorded(lines: list[dict[str, Any]]) -> list[str]:
    return [line["command_id"] for line in lines if line["type"] == "CommandRecorded"]


async def test_cli_commands_during_a_stall_use_the_one_server(tmp_path: Path) -> None:
    # Blocking calls go to a thread: the test's websockets must keep answering pings.
    data_dir = tmp_path / "data"
    serve, port = await asyncio.to_thread(start_serve, data_dir)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        player = await Peer.open(url)
        created = await player.ok({"type": "create", "ruleset": "counter",
                                   "setup": {"target": 999}})  # fmt: skip
        gid = created["game_id"]
        other = await player.ok({"type": "create", "ruleset": "counter", "setup": {}})
        acknowledged = []
        for i in range(3):
            await player.ok(add(gid, f"gw-before{i}"))
            acknowledged.append(f"gw-before{i}")
        # A game from another data directory (its own CLI-run server), to import.
        code, out, err = await asyncio.to_thread(
            run_cli, tmp_path / "elsewhere", "new", "counter", "--json"
        )
        assert code == 0, err
        imported = json.loads(out)["game_id"]
        export_file = tmp_path / "elsewhere.jsonl"
        code, _, err = await asyncio.to_thread(
            run_cli,
            tmp_path / "elsewhere",
            "export",
            imported,
            "--operator",
            "-o",
            str(export_file),
        )
        assert code == 0, err
        (valkey,) = valkey_pids(data_dir)

        os.kill(valkey, signal.SIGSTOP)
        try:
            commands = {
                "new": cli(data_dir, "new", "counter", "--json"),
                "send": cli(
                    data_dir,
                    "send",
                    gid,
                    '{"type": "Add", "amount": 1}',
                    "--command-id",
                    "cli-send",
                ),
                "log": cli(data_dir, "log", gid),
                "games": cli(data_dir, "games"),
                "audit": cli(data_dir, "audit", gid),
                "replay": cli(data_dir, "replay", gid, "--at", "2"),
                "explain": cli(data_dir, "explain", gid, "2"),
                "export": cli(data_dir, "export", gid, "--operator"),
                "reveal": cli(data_dir, "reveal", other["game_id"]),
                "revoke": cli(data_dir, "revoke", created["spectator_credential"]),
                "readjudicate": cli(data_dir, "readjudicate", gid, "--new-game-id", "rejudged"),
                "import": cli(data_dir, "import", str(export_file)),
            }
            # Each command asked for a PING, was not answered, and asks again: it is
            # waiting (on main it started a Valkey of its own after its first try).
            attempts = Attempts(data_dir / USERS_FILE, commands)
            # Twelve processes start at once: on a loaded machine (a full run under CPU
            # hogs) their imports alone take a while, so the bound is generous.
            await until(
                lambda: attempts.at_least(2),
                what=lambda: f"two PINGs of every command: {attempts.seen}",
                timeout=180,
            )
            assert valkey_pids(data_dir) == [valkey]
            assert all(p.poll() is None for p in commands.values()), {
                name: p.communicate() for name, p in commands.items() if p.poll() is not None
            }
        finally:
            os.kill(valkey, signal.SIGCONT)
        outputs = {}
        for name, process in commands.items():
            out, err = await asyncio.to_thread(process.communicate, timeout=60)
            assert process.returncode == 0, (name, out, err)
            outputs[name] = out
        acknowledged.append("cli-send")
        assert valkey_pids(data_dir) == [valkey]
        assert "OK" in outputs["audit"] or "PREFIX" in outputs["audit"], outputs["audit"]
        new_game = json.loads(outputs["new"])["game_id"]

        # The gateway sees what the CLI wrote, and the CLI's revoke.
        for i in range(3):
            await player.ok(add(gid, f"gw-after{i}"))
            acknowledged.append(f"gw-after{i}")
        view = await player.ok({"type": "list_games"})
        assert view["type"] == "games"
        spectator = await Peer.open(url)
        refused = await spectator.request(
            {"type": "auth", "credential": created["spectator_credential"]}
        )
        assert refused["type"] == "error" and refused["code"] == "unauthorized", refused
        gateway_log = await asyncio.to_thread(log_lines, data_dir, gid)
        assert recorded(gateway_log) == acknowledged
        await player.close()
        await spectator.close()
    finally:
        stop(serve)
    assert valkey_pids(data_dir) == []

    # After a restart of the whole service every acknowledged command is there, once.
    serve, port = await asyncio.to_thread(start_serve, data_dir)
    try:
        assert recorded(await asyncio.to_thread(log_lines, data_dir, gid)) == acknowledged
        for game in (new_game, imported, "rejudged"):
            assert (await asyncio.to_thread(log_lines, data_dir, game))[0]["type"] == "GameCreated"
        assert len(valkey_pids(data_dir)) == 1
    finally:
        stop(serve)


def test_a_cli_command_gives_up_on_a_stopped_server_with_a_clear_message(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    serve, _ = start_serve(data_dir)
    try:
        (valkey,) = valkey_pids(data_dir)
        os.kill(valkey, signal.SIGSTOP)
        try:
            code, out, err = run_cli(data_dir, "games", UMPIRE_STORE_WAIT_SECONDS="2")
            assert valkey_pids(data_dir) == [valkey]
        finally:
            os.kill(valkey, signal.SIGCONT)
        assert code == 2, (out, err)
        assert "store_unavailable" in err and f"process {serve.pid}" in err, err
        assert "did not answer for 2 s" in err and "Traceback" not in err
    finally:
        stop(serve)


def test_a_second_serve_on_the_same_data_dir_names_the_holder(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first, _ = start_serve(data_dir)
    try:
        second, _ = start_serve(data_dir, wait=False)
        output = second.communicate(timeout=30)[0].decode()
        assert second.returncode == 1, output
        assert f"in use by process {first.pid} (umpire serve)" in output, output
        assert "Traceback" not in output
        assert first.poll() is None and len(valkey_pids(data_dir)) == 1
    finally:
        stop(first)


def test_a_cli_command_with_no_server_runs_its_own_and_gives_the_lock_back(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    code, out, err = run_cli(data_dir, "new", "counter", "--json")
    assert code == 0, err
    gid = json.loads(out)["game_id"]
    assert valkey_pids(data_dir) == []  # stopped with the command
    serve, _ = start_serve(data_dir)  # the lock was given back
    try:
        assert log_lines(data_dir, gid)[0]["type"] == "GameCreated"
    finally:
        stop(serve)


def test_the_serve_port_taken_is_a_clear_message(tmp_path: Path) -> None:
    first, port = start_serve(tmp_path / "one")
    try:
        second = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "serve", "--port", str(port)],
            cwd=str(Path(__file__).resolve().parents[2]),
            env={**os.environ, "UMPIRE_DATA_DIR": str(tmp_path / "two")},
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert second.returncode == 1, second
        assert "address already in use" in second.stderr and "Traceback" not in second.stderr
        assert valkey_pids(tmp_path / "two") == []
    finally:
        stop(first)


async def test_a_cli_commands_server_stays_while_another_command_uses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no `umpire serve`, the first command runs the server and the second uses it;
    the first, done, waits for the second before it stops the server under it."""
    settings = from_env({}, data_dir=tmp_path / "data")
    first_open, first_done = asyncio.Event(), asyncio.Event()
    finished: list[str] = []
    refused: list[bool] = []  # the first command's tries to stop its server, refused
    try_exclusive = ServerUse.try_exclusive

    def counted(use: ServerUse) -> bool:
        taken = try_exclusive(use)
        if not taken:
            refused.append(True)
        return taken

    monkeypatch.setattr(ServerUse, "try_exclusive", counted)

    async def first() -> None:
        async with open_store(settings):
            first_open.set()
            await first_done.wait()
        finished.append("first")

    owner = asyncio.create_task(first())
    await first_open.wait()
    async with open_store(settings) as store:
        (valkey,) = valkey_pids(settings.data_dir)  # the first command's server
        first_done.set()
        # The first, done, tried to stop its server and was refused twice: it waits.
        await until(lambda: len(refused) >= 2, what="the first command waiting to stop it")
        assert await store.games() == [] and valkey_pids(settings.data_dir) == [valkey]
        finished.append("second")
    await owner
    assert finished == ["second", "first"] and valkey_pids(settings.data_dir) == []
