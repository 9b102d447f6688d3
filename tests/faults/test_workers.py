"""`umpire serve --workers 2` (server/workers.py): one embedded Valkey, two gateway
processes on one port, supervised, metrics per worker and summed, drained on SIGTERM.

On main there is no `--workers` (the option is refused), so every test here fails there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed

from tests.support.embedded_site import run_cli
from tests.support.serving import OPERATOR, REFUSED, Serve, peers_on
from tests.support.waiting import until
from umpire.server.config import from_env
from umpire.server.store_access import make_store, running_url
from umpire.testing.support.gateways import http_get
from umpire.testing.support.peer import Peer


def add(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


async def create(peer: Peer) -> dict[str, Any]:
    return await peer.ok({"type": "create", "ruleset": "counter", "setup": {"target": 10**6}})


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, parsed as Prometheus parses it."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def metric(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), -1.0)


async def test_two_workers_serve_two_clients_and_sum_their_metrics(tmp_path: Path) -> None:
    """One scrape of /metrics sums both workers (prometheus-client's multiprocess mode,
    server/metrics.py): commands on each worker, refusals by code, open connections."""
    serve = Serve(tmp_path / "data")
    try:
        on_0, on_1 = await peers_on(serve.url, ["0", "1"])
        for n, peer in enumerate([on_0, on_0, on_1]):  # two commands on 0, one on 1
            gid = (await create(peer))["game_id"]
            assert (await peer.ok(add(gid, f"c{n}")))["type"] == "accepted"
        for peer in (on_0, on_1):  # one refusal on each worker
            reply = await peer.request({"type": "view", "game_id": "no-such-game"})
            assert reply["type"] == "error", reply
        # Each worker flushes its figures every second; whichever answers sums them.
        deadline = time.monotonic() + 10
        while True:
            status, body = await http_get(serve.port, "/metrics")
            assert status == 200
            seen = (
                metric(body, "umpire_worker_commands_total", worker="0"),
                metric(body, "umpire_worker_commands_total", worker="1"),
                metric(body, "umpire_commands_total"),
                metric(body, "umpire_workers"),
                metric(body, "umpire_connections_open"),
                sum(v for (n, _), v in samples(body).items() if n == "umpire_errors_total"),
            )
            if seen == (2, 1, 3, 2, 2, 2):
                break
            assert time.monotonic() < deadline, seen
            await asyncio.sleep(0.2)
        assert metric(body, "umpire_games_created_total") == 3
        assert metric(body, "umpire_store_up") == 1
        assert metric(body, "umpire_store_write_ok") == 1
        assert metric(body, "umpire_store_fsync_pending") >= 0
        assert metric(body, "umpire_local_user_connections", uid=str(os.getuid())) == 2
        assert body.count("# TYPE umpire_commands_total counter") == 1  # one family
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
