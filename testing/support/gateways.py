"""In-process gateways for tests: their settings, plain HTTP on their port, and counter events
appended straight to their store (long games without a command each)."""

from __future__ import annotations

import asyncio

from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.events.recorder import seal_batch
from umpire.events.store import PendingEvent
from umpire.server.app import Running
from umpire.server.config import Settings


def gateway_settings(prefix: str, **overrides: object) -> Settings:
    """Settings for a test gateway (port 0 = any free port)."""
    values: dict[str, object] = {"port": 0, "prefix": prefix, "operator_token": "o" * 32}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


async def http_get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split()[1])
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )  # fmt: skip
    body = await reader.readexactly(length)
    writer.close()
    return status, body.decode()


async def append_added(
    gateway: Running, game_id: str, total: int, batch: int = 10, label: str = "bulk"
) -> None:
    """Append `total` counter.Added events straight to the store, `batch` per append.

    Command ids are `<label>-<n>`: call again with another label, or the store rightly
    takes the appends for retries and writes nothing."""
    store = gateway.gateway.store
    # The example counter, read from the registry (a ruleset package runs umpire.testing
    # without it installed; only umpire's own tests call this).
    counter = registry.get("counter")
    added = next(t for t in counter.event_types if t.__struct_config__.tag == "counter.Added")
    pending = PendingEvent(*codec_for(counter).encode(added(amount=1)))
    version = await store.version(game_id)
    link = (await store.read(game_id, version, version))[-1].hash
    for n in range(total // batch):
        result = await store.append(
            seal_batch(
                game_id,
                [pending] * batch,
                expected_version=version,
                prev_hash=link,
                command_id=f"{label}-{n}",
                recorded_at="2026-01-01T00:00:00.000Z",
            )
        )
        version, link = result.last_seq, result.last_hash
        if n % 5 == 0:
            await asyncio.sleep(0.002)  # let deliveries and disconnects interleave


async def consume_until(
    client: UmpireClient, game_id: str, total: int, received: list[int]
) -> None:
    """Subscribe from the start and record each event's seq until seq `total` arrives."""
    async for frame in client.subscribe(game_id, 0):
        received.append(frame.seq)
        if frame.seq == total:
            return
