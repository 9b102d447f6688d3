"""The whole path measured: client -> websocket -> gateway -> Redis -> gateway -> clients.

Every figure comes with its goal (issue 10) and the run it came from:

- round trip of a command (send -> `accepted`) at a fixed offered load, open loop: latency
  counts from the moment the command was due, so a generator that falls behind shows up
  as latency, not as a lower load;
- the highest offered load (stepped) whose p99 stays under 10 ms, and the closed-loop
  throughput of 100 games with one command in flight each;
- fan-out: one game with 1,000 subscribers, and 1,000 games with one subscriber each
  (command sent -> event frame received, per subscriber);
- catch-up of a new subscriber on a 100,000-event game over the websocket;
- gateway RSS per idle connection and per active game;
- the same round trip and throughput on a 3-master cluster behind two gateways.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.cluster import LocalCluster
from bench.core import _counter
from bench.cpu_quota import CpuQuota
from bench.wsload import (
    OPERATOR,
    Conn,
    CpuMeter,
    GatewayProcess,
    Reply,
    close_all,
    open_many,
    percentile,
    raise_open_files,
)
from umpire.engine.game import codec_for
from umpire.events.recorder import seal_batch
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import PendingEvent
from umpire.server.embedded import EmbeddedRedis

_cids = itertools.count(1)
FAN_OUT_RATE = 10.0  # commands/s to the 1,000-subscriber game: 2 events -> 20,000 frames/s
MANY_GAMES_RATE = 500.0  # commands/s spread over the 1,000 single-subscriber games
Progress = Callable[[str], None]
# Each gateway's CPU quota when scaling is measured at equal quotas: two of them plus the
# cluster and the load generator stay well inside a 2-core machine.
GATEWAY_QUOTA_CORES = 0.3
TICK = 0.001  # the open-loop generator's wake-up period


def _ms(seconds: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(seconds, 0.50) * 1000, 3),
        "p99_ms": round(percentile(seconds, 0.99) * 1000, 3),
        "p999_ms": round(percentile(seconds, 0.999) * 1000, 3),
        "max_ms": round(max(seconds, default=0.0) * 1000, 3),
        "samples": len(seconds),
    }


# -- round trip -----------------------------------------------------------------------------


async def players(urls: list[str], games: int, ruleset: str = "counter") -> list[tuple[Conn, str]]:
    """`games` player connections spread over `urls`, each with the `ruleset` game it
    created (`closed_loop` sends that ruleset's bench move: wsload.BENCH_MOVES)."""
    conns = []
    for i in range(games):
        conns.append(await Conn.open(urls[i % len(urls)]))
    ids = await asyncio.gather(*(c.create(ruleset=ruleset) for c in conns))
    return list(zip(conns, ids, strict=True))


async def offered_load(
    seats: list[tuple[Conn, str]], rate: float, seconds: float
) -> dict[str, Any]:
    """Open loop: `rate` commands/s round-robin over the games for `seconds`. Latency is
    from each command's due time (or its sending, if sent early within a tick) to its
    `accepted`, so the generator's own lag counts against the server, never for it."""
    total = int(rate * seconds)
    latencies: list[float] = []
    errors = 0
    tasks: set[asyncio.Task[None]] = set()

    async def one(conn: Conn, game: str, due: float) -> None:
        nonlocal errors
        try:
            await conn.add(game, f"b{next(_cids)}")
            latencies.append(time.perf_counter() - due)
        except Exception:
            errors += 1

    start = time.perf_counter() + 0.01
    sent = 0
    while sent < total:
        # Wake once per TICK and send what is due by the middle of the next tick: uvloop's
        # timers have millisecond resolution, so a shorter sleep spun the generator at a
        # full core and its own lag showed up as the server's latency.
        horizon = time.perf_counter() + TICK / 2
        due_count = min(total, int((horizon - start) * rate) + 1)
        while sent < due_count:
            conn, game = seats[sent % len(seats)]
            due = start + sent / rate
            task = asyncio.create_task(one(conn, game, max(due, time.perf_counter())))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            sent += 1
        await asyncio.sleep(TICK)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    return {
        "offered_per_s": rate,
        "achieved_per_s": round(len(latencies) / elapsed),
        "errors": errors,
        **_ms(latencies),
    }


def _held(step: dict[str, Any]) -> bool:
    return step["errors"] == 0 and step["achieved_per_s"] >= 0.95 * step["offered_per_s"]


async def step_load(
    seats: list[tuple[Conn, str]],
    first: dict[str, Any],
    rates: list[float],
    seconds: float,
    progress: Progress,
) -> dict[str, Any]:
    """Raise the offered load step by step, from the fixed-load run `first`, until p99 is
    10 ms or more or the load is not held; the highest rate held under 10 ms p99."""
    steps = [first]
    best = first["offered_per_s"] if first["p99_ms"] < 10.0 and _held(first) else 0.0
    if best:
        for rate in rates:
            progress(f"round trip at {rate:,.0f} commands/s")
            step = await offered_load(seats, rate, seconds)
            steps.append(step)
            if step["p99_ms"] >= 10.0 or not _held(step):
                break
            best = rate
    return {"highest_load_with_p99_under_10ms_per_s": best, "steps": steps}


async def closed_loop(seats: list[tuple[Conn, str]], seconds: float) -> float:
    """Commands/s with one command in flight per game (the gateway's saturation rate)."""
    done = 0
    stop_at = time.perf_counter() + seconds

    async def worker(conn: Conn, game: str) -> None:
        nonlocal done
        while time.perf_counter() < stop_at:
            await conn.move(game, f"b{next(_cids)}")
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(c, g) for c, g in seats))
    return done / (time.perf_counter() - started)


# -- fan-out --------------------------------------------------------------------------------


class Deliveries:
    """Send times of commands and receive times of their events at every subscriber."""

    def __init__(self) -> None:
        self.sent: dict[str, float] = {}
        self.latencies: list[float] = []
        self.count = 0
        self.events = 0  # events appended by the commands (from their `accepted` seqs)

    def on_event(self, frame: Reply, now: float) -> None:
        started = self.sent.get(frame.command_id or "")
        if started is not None:
            self.latencies.append(now - started)
            self.count += 1


async def _subscribe(conns: list[Conn], games: list[str], deliveries: Deliveries) -> None:
    await asyncio.gather(*(c.request({"type": "auth", "credential": OPERATOR}) for c in conns))
    for conn in conns:
        conn.on_event = deliveries.on_event
    for start in range(0, len(conns), 100):
        await asyncio.gather(
            *(
                c.request({"type": "subscribe", "game_id": g})
                for c, g in zip(conns[start : start + 100], games[start : start + 100], strict=True)
            )
        )


async def _write_and_wait(
    writers: list[tuple[Conn, str]],
    commands: int,
    rate: float,
    deliveries: Deliveries,
    per_game: int,
    timeout: float = 30.0,
) -> None:
    """Send `commands` at `rate`/s; wait until every subscriber of a game (`per_game`) has
    every event of every command (bounded by `timeout`)."""
    tasks: list[asyncio.Task[Reply]] = []
    for i in range(commands):
        conn, game = writers[i % len(writers)]
        command_id = f"f{next(_cids)}"
        deliveries.sent[command_id] = time.perf_counter()
        tasks.append(asyncio.create_task(conn.add(game, command_id)))
        await asyncio.sleep(1 / rate)
    deliveries.events = sum(len(r.seqs or ()) for r in await asyncio.gather(*tasks))
    deadline = time.perf_counter() + timeout
    while deliveries.count < per_game * deliveries.events and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)


async def fan_out_one_game(url: str, subscribers: int, commands: int) -> dict[str, Any]:
    """One game, `subscribers` connections watching it, `commands` one-event commands."""
    writer = await Conn.open(url)
    game = await writer.create()
    conns = await open_many(url, subscribers)
    deliveries = Deliveries()
    await _subscribe(conns, [game] * subscribers, deliveries)
    await _write_and_wait([(writer, game)], commands, FAN_OUT_RATE, deliveries, subscribers)
    closed = sum(1 for c in conns if c.ws is not None and c.ws.close_code is not None)
    await close_all([*conns, writer])
    return {
        "subscribers": subscribers,
        "commands_per_s": FAN_OUT_RATE,
        "events": deliveries.events,
        "delivered": deliveries.count,
        "expected": subscribers * deliveries.events,
        "subscribers_closed_by_server": closed,
        **_ms(deliveries.latencies),
    }


async def delivery_throughput(
    gateway: GatewayProcess, subscribers: int, commands: int
) -> dict[str, Any]:
    """Events/s one gateway delivers: `commands` sent back to back to one game that
    `subscribers` connections watch, counted at the subscribers until each has every
    event. The gateway's CPU and the machine's busy fraction stand beside it: the load
    generator decodes every frame in Python, so it may be the limit rather than the
    gateway."""
    writer = await Conn.open(gateway.url)
    game = await writer.create()
    conns = await open_many(gateway.url, subscribers)
    await _subscribe(conns, [game] * subscribers, Deliveries())
    received = 0
    last = 0.0

    def count(frame: Reply, now: float) -> None:
        nonlocal received, last
        if (frame.seq or 0) > 1:  # not the game's creation, which subscribing replays
            received += 1
            last = now

    for conn in conns:
        conn.on_event = count
    meter = CpuMeter([gateway.process.pid])
    meter.start()
    started = time.perf_counter()
    events = 0
    for _ in range(commands):
        events += len((await writer.add(game, f"d{next(_cids)}")).seqs or ())
    deadline = time.perf_counter() + 60
    while received < events * subscribers and time.perf_counter() < deadline:
        await asyncio.sleep(0.005)
    cpu = meter.stop()
    closed = sum(1 for c in conns if c.ws is not None and c.ws.close_code is not None)
    await close_all([*conns, writer])
    return {
        "subscribers": subscribers,
        "events": events,
        "frames_expected": events * subscribers,
        "frames_delivered": received,
        "subscribers_closed_by_server": closed,
        "events_per_s_delivered": round(received / max(last - started, 1e-9)),
        **cpu,
    }


async def fan_out_many_games(
    gateway: GatewayProcess, games: int, rounds: int
) -> tuple[dict[str, Any], float]:
    """`games` games, one subscriber each, `rounds` commands per game; also the gateway's
    RSS growth per active game (feed, window, subscription) while they are live."""
    writer_conns = await open_many(gateway.url, 20)
    ids: list[str] = []
    for start in range(0, games, 100):
        chunk = [writer_conns[(start + i) % 20] for i in range(min(100, games - start))]
        ids.extend(await asyncio.gather(*(c.create() for c in chunk)))
    writers = [(writer_conns[i % 20], g) for i, g in enumerate(ids)]
    conns = await open_many(gateway.url, games)
    idle_rss = gateway.rss()
    deliveries = Deliveries()
    await _subscribe(conns, ids, deliveries)
    await _write_and_wait(writers, games * rounds, MANY_GAMES_RATE, deliveries, 1)
    per_game = (gateway.rss() - idle_rss) / games
    closed = sum(1 for c in conns if c.ws is not None and c.ws.close_code is not None)
    await close_all([*conns, *writer_conns])
    figures = {
        "games": games,
        "commands_per_game": rounds,
        "commands_per_s": MANY_GAMES_RATE,
        "delivered": deliveries.count,
        "expected": deliveries.events,
        "subscribers_closed_by_server": closed,
        **_ms(deliveries.latencies),
    }
    return figures, per_game


# -- catch-up and memory -------------------------------------------------------------------


async def catch_up(url: str, redis_url: str, prefix: str, events: int) -> dict[str, Any]:
    """Seconds for a new subscriber to receive all of a `events`-event game, from seq 0."""
    conn = await Conn.open(url)
    game = await conn.create()
    ruleset, added = _counter()
    pending = [PendingEvent(*codec_for(ruleset).encode(added(amount=1)))] * 1000
    store = RedisEventStore.from_url(redis_url, prefix=prefix)
    version = await store.version(game)  # GameCreated and the client seed's binding
    link = await store.last_hash(game)
    while version < events:
        batch = pending[: min(1000, events - version)]
        result = await store.append(
            seal_batch(
                game,
                batch,
                expected_version=version,
                prev_hash=link,
                command_id=f"fill{version}",
                recorded_at="2026-01-01T00:00:00.000Z",
            )
        )
        version, link = result.last_seq, result.last_hash
    await store.close()
    watcher = await Conn.open(url)
    await watcher.request({"type": "auth", "credential": OPERATOR})
    finished = asyncio.get_running_loop().create_future()
    received = 0

    def on_event(frame: Reply, now: float) -> None:
        nonlocal received
        received += 1
        if frame.seq == events and not finished.done():
            finished.set_result(now)

    watcher.on_event = on_event
    started = time.perf_counter()
    await watcher.request({"type": "subscribe", "game_id": game, "from_seq": 0})
    ended = await asyncio.wait_for(finished, 120)
    await close_all([conn, watcher])
    seconds = ended - started
    return {
        "events": events,
        "received": received,
        "seconds": round(seconds, 3),
        "events_per_s": round(events / seconds),
    }


async def idle_memory(gateway: GatewayProcess, connections: int) -> dict[str, Any]:
    """Gateway RSS growth per open, idle websocket (welcome sent, nothing subscribed)."""
    await asyncio.sleep(0.5)
    before = gateway.rss()
    conns = await open_many(gateway.url, connections)
    await asyncio.sleep(1.0)
    after = gateway.rss()
    await close_all(conns)
    per = (after - before) / connections
    return {
        "connections": connections,
        "rss_before_mib": round(before / 2**20, 1),
        "rss_after_mib": round(after / 2**20, 1),
        "bytes_per_idle_connection": round(per),
        # The gateway's whole RSS with 10,000 idle connections: measured when `connections`
        # is 10,000 (the full run), projected from the growth per connection otherwise.
        "rss_with_10000_idle_mib": round((before + 10_000 * per) / 2**20, 1),
        "measured_at_10000": connections == 10_000,
    }


# -- the runs -------------------------------------------------------------------------------


async def _timed(progress: Progress, label: str, work: Awaitable[Any]) -> Any:
    progress(label)
    return await work


async def single(progress: Progress, quick: bool = False) -> dict[str, Any]:
    """Everything on one Valkey and one gateway."""
    files = raise_open_files()
    scale = 0.2 if quick else 1.0
    with tempfile.TemporaryDirectory(prefix="umpire-bench-path-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        gateway = GatewayProcess(server.url, Path(tmp), prefix="bp")
        out: dict[str, Any] = {"appendfsync": "everysec"}
        try:
            seats = await players([gateway.url], 100)
            out["round_trip_1000_per_s"] = await _timed(
                progress, "round trip at 1,000 commands/s", offered_load(seats, 1000, 8 * scale)
            )
            out["step"] = await step_load(
                seats,
                out["round_trip_1000_per_s"],
                [1500, 2000, 3000, 4000, 5000, 6000, 8000],
                3 * scale,
                progress,
            )
            meter = CpuMeter([gateway.process.pid])
            meter.start()
            rate = await _timed(progress, "closed loop, 100 games", closed_loop(seats, 5 * scale))
            cpu = meter.stop()
            out["closed_loop_100_games_per_s"] = round(rate)
            # The limit beside it: a gateway is one process on one core, so its CPU per
            # command bounds what one gateway can do however the machine is shared.
            out["closed_loop_cpu"] = cpu
            out["gateway_cpu_us_per_command"] = round(cpu["gateway_cores"] / rate * 1e6, 1)
            await close_all([c for c, _ in seats])
            out["fan_out_1_game_1000_subscribers"] = await _timed(
                progress,
                "fan-out: 1 game, 1,000 subscribers",
                fan_out_one_game(gateway.url, 1000, max(5, int(20 * scale))),
            )
            out["delivery_throughput"] = await _timed(
                progress,
                "delivery: back-to-back commands to 1 game, 1,000 subscribers",
                delivery_throughput(gateway, 1000, max(10, int(50 * scale))),
            )
            many, per_game = await _timed(
                progress,
                "fan-out: 1,000 games, 1 subscriber each",
                fan_out_many_games(gateway, 1000, max(1, int(3 * scale))),
            )
            out["fan_out_1000_games_1_subscriber"] = many
            # Every stage so far on this gateway: a full collection stops its loop, so the
            # longest pause is a floor under the latency tails above.
            out["gateway_gc"] = gateway.collector()
            out["memory_per_active_game_bytes"] = round(per_game)
            # 10,000 when the open-files limit allows (each side holds one file each).
            idle = 2_000 if quick else min(10_000, files - 200)
            out["idle_memory"] = await _timed(
                progress, f"memory: {idle:,} idle connections", idle_memory(gateway, idle)
            )
            out["catch_up_100k"] = await _timed(
                progress,
                "catch-up of a new subscriber on a 100,000-event game",
                catch_up(gateway.url, server.url, "bp", int(100_000 * scale)),
            )
        finally:
            gateway.stop()
            server.stop()
    return out


async def _equal_quota(
    progress: Progress,
    gateways: list[GatewayProcess],
    seats_one: list[tuple[Conn, str]],
    seats_two: list[tuple[Conn, str]],
    scale: float,
) -> dict[str, Any]:
    """The closed loop again, one gateway then two, each gateway held to the same CPU
    quota (bench/cpu_quota.py): what the design, not the machine, lets a second add."""
    why_not = CpuQuota.available()
    if why_not is not None:
        return {"measured": False, "why_not": why_not}
    quotas = [CpuQuota(f"umpire-bench-{g.port}", GATEWAY_QUOTA_CORES) for g in gateways]
    try:
        for quota, gateway in zip(quotas, gateways, strict=True):
            quota.add(gateway.process.pid)
        meter = CpuMeter([g.process.pid for g in gateways])
        label = f"cluster: closed loop, gateways held to {GATEWAY_QUOTA_CORES} cores each"
        meter.start()
        one = await _timed(progress, f"{label}: one", closed_loop(seats_one, 4 * scale))
        cpu_one = meter.stop()
        meter.start()
        two = await _timed(progress, f"{label}: two", closed_loop(seats_two, 4 * scale))
        cpu_two = meter.stop()
    finally:
        for quota in quotas:
            quota.close()
    return {
        "measured": True,
        "cores_per_gateway": GATEWAY_QUOTA_CORES,
        "one_gateway_per_s": round(one),
        "two_gateways_per_s": round(two),
        "scaling_two_over_one": round(two / one, 2),
        "cpu_one_gateway": cpu_one,
        "cpu_two_gateways": cpu_two,
    }


async def cluster(progress: Progress, quick: bool = False) -> dict[str, Any]:
    """The round trip and throughput on a 3-master cluster, one gateway then two."""
    scale = 0.2 if quick else 1.0
    out: dict[str, Any] = {"masters": 3, "appendfsync": "everysec"}
    with tempfile.TemporaryDirectory(prefix="umpire-bench-cluster-") as tmp:
        progress("starting a 3-master cluster and two gateways")
        local = LocalCluster(Path(tmp) / "cluster", masters=3).start()
        gateways: list[GatewayProcess] = []
        try:
            for _ in range(2):
                gateways.append(GatewayProcess(local.url, Path(tmp), prefix="bc", cluster=True))
            urls = [g.url for g in gateways]
            seats_two = await players(urls, 100)
            seats_one = [(c, g) for i, (c, g) in enumerate(seats_two) if i % 2 == 0]
            out["round_trip_1000_per_s_two_gateways"] = await _timed(
                progress,
                "cluster: round trip at 1,000 commands/s over two gateways",
                offered_load(seats_two, 1000, 6 * scale),
            )
            # Each run's gateway CPU and the machine's busy fraction beside its rate: on a
            # machine whose cores are all busy, a second gateway can only add what is
            # left, so scaling is also reported per gateway core.
            meter = CpuMeter([g.process.pid for g in gateways])
            meter.start()
            one = await _timed(
                progress,
                "cluster: closed loop, one gateway (50 games)",
                closed_loop(seats_one, 4 * scale),
            )
            cpu_one = meter.stop()
            meter.start()
            two = await _timed(
                progress,
                "cluster: closed loop, two gateways (100 games)",
                closed_loop(seats_two, 4 * scale),
            )
            cpu_two = meter.stop()
            out["closed_loop_one_gateway_per_s"] = round(one)
            out["closed_loop_two_gateways_per_s"] = round(two)
            out["scaling_two_over_one"] = round(two / one, 2)
            out["cpu_one_gateway"] = cpu_one
            out["cpu_two_gateways"] = cpu_two
            per_core_one = one / max(cpu_one["gateway_cores"], 0.01)
            per_core_two = two / max(cpu_two["gateway_cores"], 0.01)
            out["commands_per_gateway_core_one"] = round(per_core_one)
            out["commands_per_gateway_core_two"] = round(per_core_two)
            out["scaling_per_gateway_core"] = round(per_core_two / per_core_one, 2)
            out["equal_quota"] = await _equal_quota(progress, gateways, seats_one, seats_two, scale)
            await close_all([c for c, _ in seats_two])
        finally:
            for gateway in gateways:
                gateway.stop()
            local.stop()
    return out
