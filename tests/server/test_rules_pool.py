"""server/rules_pool.py: a command type measured costly runs in a worker process, with the
same events (and the same refusals) as in a thread, and its CPU time is measured there.

The gateway's own Games (an in-process gateway, its RulesPool with one worker process) and
a Games whose rules run in threads only play the largest Conflict of Heroes setup the
bounds allow from the same seed; their logs must hold the same events, byte for byte.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from umpire.engine.actions import legal_actions
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.receipt_signature import ReceiptSigner
from umpire.events.redis_store import RedisEventStore
from umpire.server.app import Running
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.server.rules_job import RulesJob
from umpire.server.rules_pool import (
    HEAVY_SECONDS,
    LIGHT_AFTER,
    LIGHT_SECONDS,
    RulesPool,
)
from umpire.server.work_meter import WorkMeter
from umpire.testing.support.largest_setups import largest_conflict_of_heroes
from umpire.testing.support.nonces import nonce_of

SEED = bytes(range(32))
PLAY = [{"type": "Pass"}, {"type": "TakeAiTurn"}] * 3


async def _play(games: Games) -> tuple[list[tuple[str, bytes]], list[float]]:
    setup = largest_conflict_of_heroes()
    await games.create("conflict_of_heroes", setup, game_id="gpool", client_entropy="bind")
    await games.bind_client_seed("gpool", "pool")
    spent = []
    for n, command in enumerate(PLAY):
        meter = WorkMeter()
        await games.handle("gpool", f"c{n}", command, meter=meter, nonce=nonce_of(f"c{n}"))
        spent.append(meter.seconds)
    # The events as stored (type and payload bytes; the hashes cover the wall clock too).
    return [(env.type, env.payload) for env in await games.store.read("gpool")], spent


async def test_a_costly_command_type_runs_in_a_process_with_the_same_events(
    gateway: Running, redis_server: EmbeddedRedis, prefix: str
) -> None:
    pooled = gateway.gateway.games
    pooled.draw_seed = lambda: SEED
    pooled.draw_key = lambda: SEED
    # Both stores sign receipts with one key, as they draw one seed: GameCreated names it.
    signer = ReceiptSigner(SEED)
    await gateway.gateway.store.keep_receipt_key(signer.key_id, SEED, current=True)
    events, spent = await _play(pooled)
    assert pooled.rules.in_process >= 2, pooled.rules.estimates
    assert pooled.rules.estimates[("conflict_of_heroes", "TakeAiTurn")] > HEAVY_SECONDS
    assert all(s > 0 for s in spent[1::2])  # measured in the process too
    store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}thread")
    try:
        await store.keep_receipt_key(signer.key_id, SEED, current=True)
        threaded = Games(store, draw_seed=lambda: SEED, draw_key=lambda: SEED)
        assert threaded.rules.processes == 0
        assert (await _play(threaded))[0] == events
    finally:
        await store.close()
    # A refusal decided in the process arrives whole: its code, message and rule.
    with pytest.raises(RuleError) as refused:
        await pooled.handle("gpool", "again", {"type": "TakeAiTurn"}, nonce=nonce_of("again"))
    assert refused.value.code == "command_not_allowed" and refused.value.rule
    assert "player's turn" in refused.value.message and refused.value.details["allowed"]


@pytest.mark.parametrize("error", [RuleError("m", rule="r", extra=1), UmpireError("m", a=[1])])
def test_errors_survive_pickling(error: Any) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == "m"
    assert back.code == error.code and back.details == error.details
    assert getattr(back, "rule", None) == getattr(error, "rule", None)


async def test_a_dead_worker_process_costs_no_command(gateway: Running) -> None:
    # A worker killed (out of memory, by an operator): the command it would have run runs
    # in a thread, and the next costly command has a fresh process.
    games = gateway.gateway.games
    games.draw_seed = lambda: SEED
    await _play(games)
    pool = games.rules._pool
    assert pool is not None
    for pid in list(pool._processes):  # the workers this test's gateway started
        os.kill(pid, signal.SIGKILL)
    await games.handle("gpool", "p1", {"type": "Pass"}, nonce=nonce_of("p1"))
    result = await games.handle("gpool", "t1", {"type": "TakeAiTurn"}, nonce=nonce_of("t1"))
    assert result.last_seq > result.first_seq
    assert games.rules._pool is not None and games.rules._pool is not pool
    before = games.rules.in_process
    await games.handle("gpool", "p2", {"type": "Pass"}, nonce=nonce_of("p2"))
    await games.handle("gpool", "t2", {"type": "TakeAiTurn"}, nonce=nonce_of("t2"))
    assert games.rules.in_process > before


async def test_a_costly_state_frames_actions_are_listed_in_a_process(gateway: Running) -> None:
    # Merged with main's complete legal actions, listing them for the largest map takes
    # ~0.3 s of CPU: a `view` computed them on the event loop.
    games = gateway.gateway.games
    games.draw_seed = lambda: SEED
    await _play(games)
    ruleset, game = await games.load("gpool")
    listed = await games.rules.actions(ruleset, game, Role.PLAYER)
    assert games.rules.estimates[("conflict_of_heroes", "(legal actions)")] > HEAVY_SECONDS
    before = games.rules.in_process
    again = await games.rules.actions(ruleset, game, Role.PLAYER)
    assert (
        again == listed == legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
    )
    assert games.rules.in_process == before + 1


def _busy(seconds: float) -> None:
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        pass


async def test_a_light_command_type_runs_on_the_loop_and_a_slow_run_sends_it_off() -> None:
    # Fails before LIGHT_SECONDS: every decision was handed to a thread (~40 µs of the
    # loop's CPU for rules that take 1 to 20 µs).
    ran_in: list[tuple[str, int]] = []

    def decide(job: RulesJob) -> list[Any]:
        command = job.command
        ran_in.append((command["type"], threading.get_ident()))
        _busy(command.get("cpu", 0.0))
        return []

    pool = RulesPool(decide)
    ruleset = SimpleNamespace(name="probe")
    loop_thread = threading.get_ident()

    async def run(command: dict[str, Any]) -> bool:
        meter = WorkMeter()
        job = RulesJob(ruleset, None, command, None, None, Role.PLAYER)  # type: ignore[arg-type]
        await pool.run(job, meter)
        return ran_in[-1][1] == loop_thread

    light = {"type": "Roll"}
    assert [await run(light) for _ in range(LIGHT_AFTER)] == [False] * LIGHT_AFTER
    assert all([await run(light) for _ in range(20)]) and pool.on_loop == 20
    # A first run that pays for a warm-up does not count against the type (fails with a
    # peak that counted it: Downtown's RollDice stayed in a thread for good).
    await run({"type": "Warm", "cpu": 20 * LIGHT_SECONDS})
    assert [await run({"type": "Warm"}) for _ in range(LIGHT_AFTER)] == [False, False, True]
    # A type light at first whose one run is slower (an opponent's procedure that only
    # some of its commands start, a garbage collection) leaves the loop for hundreds of
    # runs, then comes back.
    for _ in range(LIGHT_AFTER):
        await run({"type": "EndPhase"})
    assert await run({"type": "EndPhase", "cpu": 20 * LIGHT_SECONDS})
    assert not any([await run({"type": "EndPhase"}) for _ in range(250)])
    back = [await run({"type": "EndPhase"}) for _ in range(100)]
    assert back[-1] and not back[0]
    # A type slower from the start never runs on the loop.
    assert not any([await run({"type": "AiTurn", "cpu": 2 * LIGHT_SECONDS}) for _ in range(50)])


async def test_a_light_run_on_the_loop_reads_the_cpu_clock_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Fails with two reads a run (each a system call on the command path); a run slow on
    # the wall clock but not on the CPU's (here: asleep) is still measured by its CPU time.
    # The wall clock is the test's own: on a busy machine a trivial run can be preempted
    # past LIGHT_SECONDS of real wall time, and rightly reads the CPU clock a second time.
    wall = 0.0

    def decide(job: RulesJob) -> list[Any]:
        nonlocal wall
        wall += job.command.get("sleep", 0.0)
        time.sleep(job.command.get("sleep", 0.0))
        return []

    pool = RulesPool(decide)
    ruleset = SimpleNamespace(name="probe")

    async def run(command: dict[str, Any]) -> float:
        meter = WorkMeter()
        job = RulesJob(ruleset, None, command, None, None, Role.PLAYER)  # type: ignore[arg-type]
        await pool.run(job, meter)
        return meter.last

    for _ in range(LIGHT_AFTER):
        await run({"type": "Roll"})
    reads = 0
    thread_time = time.thread_time

    def counted() -> float:
        nonlocal reads
        reads += 1
        return thread_time()

    monkeypatch.setattr(time, "thread_time", counted)
    monkeypatch.setattr(time, "perf_counter", lambda: wall)
    assert await run({"type": "Roll"}) <= LIGHT_SECONDS
    assert (reads, pool.on_loop) == (1, 1)
    asleep = await run({"type": "Roll", "sleep": 50 * LIGHT_SECONDS})
    assert (reads, pool.on_loop) == (3, 2)
    assert asleep < 5 * LIGHT_SECONDS  # its CPU time, not the 10 ms it slept
    assert await run({"type": "Roll"}) <= LIGHT_SECONDS and pool.on_loop == 3


async def test_a_collection_inside_a_light_run_does_not_send_its_type_off_the_loop() -> None:
    # Fails when a run's CPU time counts the garbage collection it happened to start: the
    # type left the loop for hundreds of runs, each handed to a thread (~40 µs of the loop
    # a command), about once a second in the closed loop.
    garbage = [[i] for i in range(300_000)]  # tracked objects: a full collection's work
    on_loop: list[bool] = []

    def decide(job: RulesJob) -> list[Any]:
        on_loop.append(threading.get_ident() == loop_thread)
        if job.command.get("collect"):
            gc.collect()
        return []

    loop_thread = threading.get_ident()
    pool = RulesPool(decide)
    ruleset = SimpleNamespace(name="probe")

    async def run(command: dict[str, Any]) -> WorkMeter:
        meter = WorkMeter()
        job = RulesJob(ruleset, None, command, None, None, Role.PLAYER)  # type: ignore[arg-type]
        await pool.run(job, meter)
        return meter

    for _ in range(LIGHT_AFTER + 1):
        await run({"type": "Roll"})
    collected = await run({"type": "Roll", "collect": True})
    assert [await run({"type": "Roll"}) and on_loop[-1] for _ in range(5)] == [True] * 5
    # The collection is measured, and admission still charges the whole run.
    assert collected.collected > LIGHT_SECONDS
    assert collected.seconds == collected.last >= collected.collected
    assert len(garbage) == 300_000
