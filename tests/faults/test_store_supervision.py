"""`umpire serve` supervises its embedded Valkey (server/supervisor.py) and /healthz always
answers within a second (server/http.py).

On main, after `kill -9` of the embedded Valkey nothing reaped or restarted it (a zombie)
and the gateway answered `store_unavailable` for good; while Valkey was frozen /healthz
hung for 10 s and closed with no reply. Here, under 20 writers, the dead Valkey is reaped
and restarted from its AOF, every writer is served again within 10 s, every acknowledged
command is in the log exactly once, a subscriber sees every event with no gap, and
/healthz answers within a second throughout (and while Valkey is frozen).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.embedded_site import (
    incr_aof,
    start_serve,
    stop,
    tcp_listeners,
    valkey_pids,
)
from tests.support.waiting import until
from umpire.engine.audit import audit
from umpire.server.config import from_env
from umpire.server.store_access import URL_FILE, make_store, running_url
from umpire.testing.support.gateways import http_get
from umpire.testing.support.peer import Peer

WRITERS = 20
# Bounds, not figures (a loaded machine may be slow, and no default test asserts a speed):
# /healthz must answer well before the store client's 10 s socket timeout (so it never
# waits on a frozen store), and writers must be served again well within a minute.
HEALTH_DEADLINE = 5.0
RESTORED_WITHIN = 30.0


def add(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


class Probe:
    """Polls /healthz; keeps every answer's status and how long it took."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answers: list[tuple[int, float]] = []
        self.missed: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            started = time.monotonic()
            try:
                status, _ = await asyncio.wait_for(http_get(self.port, "/healthz"), HEALTH_DEADLINE)
                self.answers.append((status, time.monotonic() - started))
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                self.missed.append(f"{type(exc).__name__} after {time.monotonic() - started:.2f}s")
            await asyncio.sleep(0.1)


async def write(peer: Peer, gid: str, name: str, stop: asyncio.Event, acked: list[str],
                times: list[float]) -> None:  # fmt: skip
    """Send commands one after another; a refused one is retried with the same id."""
    n = 0
    while not stop.is_set():
        command_id = f"{name}-{n}"
        while True:
            reply = await peer.request(add(gid, command_id), timeout=30)
            if reply["type"] == "accepted":
                break
            if reply["code"] == "over_budget":  # 20 writers share one address's budget
                await asyncio.sleep(float(reply["details"]["retry_after"]) + 0.01)
                continue
            assert reply["code"] == "store_unavailable", reply
            await asyncio.sleep(0.1)
        acked.append(command_id)
        times.append(time.monotonic())
        n += 1


async def test_kill_9_under_20_writers_is_restarted_and_loses_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    serve, port = start_serve(data_dir)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        peers = [await Peer.open(url) for _ in range(WRITERS)]
        games, spectators = [], []
        for peer in peers:
            created = await peer.ok({"type": "create", "ruleset": "counter",
                                     "setup": {"target": 1_000_000}})  # fmt: skip
            games.append(created["game_id"])
            spectators.append(created["spectator_credential"])
        watcher = await Peer.open(url)
        await watcher.ok({"type": "subscribe", "game_id": games[0], "from_seq": 0,
                          "credential": spectators[0]})  # fmt: skip
        (valkey,) = valkey_pids(data_dir)

        stop_writing, stop_probing = asyncio.Event(), asyncio.Event()
        probe = Probe(port)
        probing = asyncio.create_task(probe.run(stop_probing))
        acked: list[list[str]] = [[] for _ in peers]
        times: list[list[float]] = [[] for _ in peers]
        writers = [
            asyncio.create_task(write(peer, gid, f"w{i}", stop_writing, acked[i], times[i]))
            for i, (peer, gid) in enumerate(zip(peers, games, strict=True))
        ]
        await until(  # every writer under way (a count, not a time)
            lambda: all(len(mine) >= 5 for mine in acked), what="5 commands of every writer"
        )
        killed_at = time.monotonic()
        os.kill(valkey, signal.SIGKILL)
        await until(  # how soon is asserted below; here it only has to happen
            lambda: all(stamps and stamps[-1] > killed_at for stamps in times),
            what="every writer served after the kill",
            timeout=60,
        )
        stop_writing.set()
        await asyncio.gather(*writers)

        # Frozen (SIGSTOP): /healthz still answers, 503 naming the cause, within a second.
        (restarted,) = valkey_pids(data_dir)
        asked = len(probe.answers) + len(probe.missed)
        os.kill(restarted, signal.SIGSTOP)
        try:
            await until(  # the probe asked twice, at least once wholly while it was frozen
                lambda: len(probe.answers) + len(probe.missed) >= asked + 2,
                what="two /healthz probes while Valkey is frozen",
            )
            status, body = await asyncio.wait_for(http_get(port, "/healthz"), HEALTH_DEADLINE)
            # Unresponsive, or already being restarted: on a loaded machine the supervisor
            # may give up on the frozen server before this probe comes; either way 503
            # names the cause.
            assert status == 503, body
            assert '"store":"unresponsive"' in body or '"store":"restarting"' in body, body
        finally:
            os.kill(restarted, signal.SIGCONT)
        thawed = len(probe.answers)
        await until(
            lambda: any(status == 200 for status, _ in probe.answers[thawed:]),
            what="/healthz 200 again after the thaw",
        )
        stop_probing.set()
        await probing

        assert restarted != valkey
        assert not os.path.exists(f"/proc/{valkey}"), "the killed Valkey was not reaped"
        for name, stamps in zip(acked, times, strict=True):
            after = [t for t in stamps if t > killed_at]
            assert after and after[0] - killed_at < RESTORED_WITHIN, (name[-1:], after[:1])
        assert not probe.missed, probe.missed
        assert all(seconds < HEALTH_DEADLINE for _, seconds in probe.answers)
        assert probe.answers[-1][0] == 200

        store = make_store(running_url(data_dir) or "", from_env({}))
        try:
            for gid, commands in zip(games, acked, strict=True):
                envelopes = await store.read(gid)
                recorded = [e.command_id for e in envelopes if e.type == "CommandRecorded"]
                assert recorded == commands  # each acknowledged command once, in order
                assert audit(envelopes).ok
            head = await store.version(games[0])
        finally:
            await store.close()
        await watcher.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, 15)
        assert [e["seq"] for e in watcher.events(games[0])] == list(range(1, head + 1))
        for peer in [*peers, watcher]:
            await peer.close()
    finally:
        output = stop(serve)
    assert "restarting it from the AOF" in output and "embedded Valkey restarted" in output
    # A background feed refresh that meets the dead store is one log line, not an
    # unretrieved task's traceback (server/feed.py Notifier._refreshed).
    assert "Traceback" not in output, output[output.find("Traceback") - 500 :][:4000]
    assert "Task exception was never retrieved" not in output
    assert valkey_pids(data_dir) == []
    # The restarted server was stopped by SIGTERM at shutdown (it flushed its AOF), not
    # killed early with the thread that had started it (PR_SET_PDEATHSIG is per thread).
    valkey_log = (data_dir / "redis" / "valkey.log").read_text()
    assert valkey_log.count("Received SIGTERM") == 1, valkey_log[-2000:]


async def test_the_store_listens_on_no_tcp_port_before_or_after_a_restart(
    tmp_path: Path,
) -> None:
    """docs/security.md, attack (a): after a Valkey death (or at start with a fixed
    UMPIRE_STORE_PORT) a local user listening on the store's loopback port was sent
    `AUTH admin <password>` by the readiness probe. Here there is no port to take: the
    embedded Valkey listens on its unix socket alone, before and after a kill -9 and
    restart, and redis.url names only that socket. On main it listened on loopback TCP."""
    data_dir = tmp_path / "data"
    serve, port = start_serve(data_dir)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        player = await Peer.open(url)
        created = await player.ok({"type": "create", "ruleset": "counter", "setup": {}})
        gid = created["game_id"]
        (valkey,) = valkey_pids(data_dir)
        assert tcp_listeners(valkey) == []
        published = (data_dir / URL_FILE).read_text().split()
        assert len(published) == 1 and published[0].startswith("unix://"), published
        os.kill(valkey, signal.SIGKILL)
        deadline = time.monotonic() + 2 * RESTORED_WITHIN  # a bound, not a figure
        while True:
            reply = await player.request(add(gid, "after"), timeout=15)
            if reply["type"] == "accepted":
                break
            assert reply["code"] == "store_unavailable", reply
            assert time.monotonic() < deadline, reply
            assert "/" not in reply["message"], reply  # no server path in a client's error
            await asyncio.sleep(0.1)
        (restarted,) = valkey_pids(data_dir)
        assert restarted != valkey and tcp_listeners(restarted) == []
        await player.close()
    finally:
        output = stop(serve)
    # The supervisor's death notice; its "restarted" line comes once PING answers, which
    # the gateway's own retry may beat (a loaded run stopped the serve in between).
    assert "restarting it from the AOF" in output, output


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_healthz_names_a_restart_in_progress_and_its_attempt(
    tmp_path: Path, workers: str
) -> None:
    """While the supervisor restarts the embedded Valkey (here: its AOF ends in a torn
    command, which it refuses to load, until the tail is cut off again), /healthz answers
    503 within a second, naming the cause and the attempt; once restarted, 200 again. On
    main it said only `"store":"unreachable"`, the same as for any refused connection.
    With `--workers 2` the supervisor is the parent's and the answering worker learns of
    the restart from it (server/store_status.py); before that a worker answered
    "unreachable" after its PING deadline, and never named the attempt."""
    data_dir = tmp_path / "data"
    serve, port = start_serve(data_dir, UMPIRE_WORKERS=workers)
    try:
        (valkey,) = valkey_pids(data_dir)
        aof = incr_aof(data_dir)
        whole = aof.stat().st_size
        with aof.open("ab") as tail:
            tail.write(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nva")  # a torn write
        os.kill(valkey, signal.SIGKILL)
        attempts: list[int] = []
        deadline = time.monotonic() + 60
        while not attempts or attempts[-1] < 3:
            assert time.monotonic() < deadline, attempts
            started = time.monotonic()
            status, body = await asyncio.wait_for(http_get(port, "/healthz"), HEALTH_DEADLINE)
            assert time.monotonic() - started < HEALTH_DEADLINE
            assert status == 503, body
            found = re.search(r'"cause":"store restarting, attempt (\d+)"', body)
            if found:
                assert '"store":"restarting"' in body, body
                attempts.append(int(found[1]))
            await asyncio.sleep(0.1)
        assert attempts == sorted(attempts), attempts
        os.truncate(aof, whole)
        deadline = time.monotonic() + 60
        while (await http_get(port, "/healthz"))[0] != 200:
            assert time.monotonic() < deadline, "not healthy after the AOF was whole again"
            await asyncio.sleep(0.1)
    finally:
        output = stop(serve)
    assert "did not restart" in output and "embedded Valkey restarted" in output, output
