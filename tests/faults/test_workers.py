"""`umpire serve --workers 2` (server/workers.py): one embedded Valkey, two gateway
processes on one port, supervised, metrics per worker and summed, drained on SIGTERM.

On main there is no `--workers` (the option is refused), so every test here fails there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.support.embedded_site import environment, run_cli
from tests.support.processes import REPO, wait_for_port
from tests.support.waiting import until
from umpire.server.config import from_env
from umpire.server.embedded import free_port
from umpire.server.store_access import make_store, running_url
from umpire.testing.support.gateways import http_get
from umpire.testing.support.peer import Peer

OPERATOR = "workers-test-operator-token"
# The writers send as fast as they are answered: no rate limit or budget may close them.
ENV = {
    "UMPIRE_OPERATOR_TOKEN": OPERATOR,
    "UMPIRE_MAX_MESSAGES_PER_SECOND": "100000",
    "UMPIRE_MAX_BURST": "100000",
    "UMPIRE_COST_PER_SECOND": "1e9",
    "UMPIRE_COST_BURST": "1e9",
    "UMPIRE_ADDRESS_COST_PER_SECOND": "1e9",
    "UMPIRE_ADDRESS_COST_BURST": "1e9",
}
# A connection racing a worker's death or start may fail its handshake: try again.
REFUSED = (OSError, ConnectionError, TimeoutError, InvalidHandshake)


class Serve:
    """`umpire serve --workers 2` on a data directory, its output kept in a file (the
    workers write to it too: a pipe nobody drains would block them)."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.log = data_dir.parent / "serve.log"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "umpire.server.cli", "serve", "--workers", "2",
                 "--port", str(self.port)],
                cwd=REPO,
                env=environment(data_dir, UMPIRE_WORKERS="", **ENV),
                stdout=out,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        wait_for_port(self.port)
        self.url = f"ws://127.0.0.1:{self.port}/ws"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def worker_pids(self) -> list[int]:
        """The workers' pids in worker order, from the banner."""
        deadline = time.monotonic() + 10
        while not (found := re.search(r"2 workers: pids (\d+) (\d+)", self.output())):
            assert time.monotonic() < deadline, self.output()
            time.sleep(0.05)
        return [int(found.group(1)), int(found.group(2))]

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        return self.output()


def worker_of(peer: Peer) -> str:
    """The worker that accepted the connection, from the handshake's response header."""
    assert peer.ws.response is not None
    return peer.ws.response.headers["X-Umpire-Worker"]


async def peers_on(url: str, wanted: list[str]) -> list[Peer]:
    """One connection on each of the `wanted` workers (the kernel spreads connections
    over the workers' sockets by their addresses: new ones until each is met; a worker
    still starting is waited for)."""
    found: dict[str, Peer] = {}
    spare: list[Peer] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if len(spare) >= 20:
            for peer in spare:
                await peer.close()
            spare.clear()
            await asyncio.sleep(0.2)
        try:
            peer = await Peer.open(url)
        except REFUSED:
            await asyncio.sleep(0.1)
            continue
        worker = worker_of(peer)
        if worker in wanted and worker not in found:
            found[worker] = peer
        else:
            spare.append(peer)
        if len(found) == len(wanted):
            break
    for peer in spare:
        await peer.close()
    assert len(found) == len(wanted), f"connections reached only workers {sorted(found)}"
    return [found[w] for w in wanted]


def add(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


async def create(peer: Peer) -> dict[str, Any]:
    return await peer.ok({"type": "create", "ruleset": "counter", "setup": {"target": 10**6}})


def metric(text: str, series: str) -> float:
    found = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    return float(found.group(1)) if found else -1.0


async def test_two_workers_serve_two_clients_and_sum_their_metrics(tmp_path: Path) -> None:
    serve = Serve(tmp_path / "data")
    try:
        on_0, on_1 = await peers_on(serve.url, ["0", "1"])
        for n, peer in enumerate([on_0, on_0, on_1]):  # two commands on 0, one on 1
            gid = (await create(peer))["game_id"]
            assert (await peer.ok(add(gid, f"c{n}")))["type"] == "accepted"
        # Each worker publishes its figures every second; whichever answers sums them.
        deadline = time.monotonic() + 10
        while True:
            status, body = await http_get(serve.port, "/metrics")
            assert status == 200
            seen = (
                metric(body, 'umpire_worker_commands_total{worker="0"}'),
                metric(body, 'umpire_worker_commands_total{worker="1"}'),
                metric(body, "umpire_commands_total"),
                metric(body, "umpire_workers"),
            )
            if seen == (2, 1, 3, 2):
                break
            assert time.monotonic() < deadline, seen
            await asyncio.sleep(0.2)
        assert metric(body, "umpire_games_created_total") == 3
        assert body.count("# TYPE umpire_commands_total ") == 1
        await on_0.close()
        await on_1.close()
    finally:
        serve.stop()


async def resubscribe(url: str, gid: str, credential: str, after: int) -> Peer:
    deadline = time.monotonic() + 15
    while True:
        try:
            peer = await Peer.open(url)
            await peer.ok({"type": "subscribe", "game_id": gid, "from_seq": after,
                           "credential": credential})  # fmt: skip
            return peer
        except REFUSED:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)


async def test_a_killed_worker_is_restarted_and_its_clients_resume(tmp_path: Path) -> None:
    """kill -9 of worker 0: the player on worker 1 is served throughout; the spectator on
    worker 0 reconnects, resubscribes from its last seq and misses nothing; a player
    reconnecting sends a command id twice and it is applied once; the parent starts
    worker 0 again."""
    data_dir = tmp_path / "data"
    serve = Serve(data_dir)
    try:
        pids = serve.worker_pids()
        watcher, steady = await peers_on(serve.url, ["0", "1"])
    except BaseException:
        serve.stop()
        raise
    try:
        created = await create(steady)
        gid, spectator = created["game_id"], created["spectator_credential"]
        await watcher.ok({"type": "subscribe", "game_id": gid, "from_seq": 0,
                          "credential": spectator})  # fmt: skip
        player_credential = created["player_credential"]
        acked: list[str] = []
        stop = asyncio.Event()

        async def steady_writer() -> None:
            n = 0
            while not stop.is_set():
                reply = await steady.ok(add(gid, f"s{n}"))
                assert reply["type"] == "accepted", reply
                acked.append(f"s{n}")
                n += 1
                await asyncio.sleep(0.02)

        writing = asyncio.create_task(steady_writer())
        await until(lambda: len(acked) >= 10, what="10 commands of the steady player")
        at_kill = len(acked)
        os.kill(pids[0], signal.SIGKILL)
        # The spectator's connection dies with its worker: it resumes where it was.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(watcher._reader, 10)
        seen = [e["seq"] for e in watcher.events(gid)]
        resumed = await resubscribe(serve.url, gid, spectator, seen[-1] if seen else 0)
        # A player reconnecting (wherever it lands) sends a command id twice: applied once.
        (retrying,) = await peers_on(serve.url, ["1"])  # worker 0 may not be back yet
        await retrying.ok({"type": "auth", "credential": player_credential})
        first = await retrying.ok(add(gid, "retried"))
        again = await retrying.ok(add(gid, "retried"))
        assert again["duplicate"] and again["seqs"] == first["seqs"]
        # The steady player is served on through the worker's death (a count, not a time).
        await until(lambda: len(acked) >= at_kill + 20, what="20 more steady commands")
        stop.set()
        await writing
        store = make_store(running_url(data_dir) or "", from_env({}))
        try:
            head = await store.version(gid)
            recorded = [e.command_id for e in await store.read(gid) if e.type == "CommandRecorded"]
        finally:
            await store.close()
        assert sorted(recorded) == sorted([*acked, "retried"])  # each once
        await resumed.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, 15)
        assert seen + [e["seq"] for e in resumed.events(gid)] == list(range(1, head + 1))
        # The parent started worker 0 again; new connections reach it.
        deadline = time.monotonic() + 15
        while "worker 0 restarted" not in serve.output():
            assert time.monotonic() < deadline, serve.output()[-3000:]
            await asyncio.sleep(0.1)
        (back,) = await peers_on(serve.url, ["0"])
        await back.close()
        for peer in [steady, resumed, retrying]:
            await peer.close()
    finally:
        output = serve.stop()
    assert "worker 0 (pid" in output and "exited with status -9" in output, output[-3000:]


async def test_sigterm_drains_every_worker_and_loses_no_acknowledged_command(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    serve = Serve(data_dir)
    try:
        peers = await peers_on(serve.url, ["0", "1"])
        games = [(await create(peer))["game_id"] for peer in peers]
        acked: list[list[str]] = [[], []]
        closed: list[int | None] = [None, None]

        async def writer(i: int) -> None:
            n = 0
            while True:
                try:
                    reply = await peers[i].request(add(games[i], f"w{i}-{n}"), timeout=20)
                except (ConnectionError, ConnectionClosed):
                    closed[i] = peers[i].ws.close_code
                    return
                if reply["type"] != "accepted":
                    assert reply["code"] == "shutting_down", reply
                    await asyncio.sleep(0.01)
                    continue
                acked[i].append(f"w{i}-{n}")
                n += 1

        writing = [asyncio.create_task(writer(i)) for i in range(2)]
        # SIGTERM mid-burst: once both writers are under way (a count, not a time).
        await until(lambda: all(len(mine) >= 20 for mine in acked), what="20 commands each")
        serve.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(asyncio.gather(*writing), 40)
        assert serve.process.wait(40) == 0
    finally:
        output = serve.stop()
    assert closed == [1001, 1001], (closed, output[-3000:])
    assert all(acked), acked
    assert output.count("server closed") == 2, output[-3000:]  # both workers drained
    for gid, commands in zip(games, acked, strict=True):
        code, out, err = run_cli(
            data_dir, "log", gid, "--json", "--as", "referee", UMPIRE_OPERATOR_TOKEN=OPERATOR
        )
        assert code == 0, err
        for command_id in commands:
            assert out.count(f'"command_id":"{command_id}"') >= 1, command_id
