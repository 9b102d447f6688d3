"""Memory per active game with and without the client seed's binding:
`python -m bench.memory_per_event [--runs N]`.

The quick bench's `memory_per_active_game_bytes` (bench/path.py `fan_out_many_games`:
1,000 counter games, one subscriber and one command each, RSS growth of a gateway per
game) creates its games as the clients do, binding a client seed after the server's
commitment (docs/audit.md 4.1). That binding is one more event per game than before it
existed (ClientSeedBound, issue #16), and each windowed event costs the gateway its
envelope and its frame. This runs the same stage on a fresh gateway twice per run: once
so, once with games that waive client entropy (as many events per game as at 75c63a5),
so the cost per windowed event can be compared across commits apart from the count.

`--as-created-only` runs only the first (games as the checkout's clients create them),
for an older checkout: copy this file and bench/checkout.py into its bench/ and run it
there.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from rich.console import Console

from bench import path, wsload
from bench.checkout import project
from bench.wsload import Conn, GatewayProcess


async def _waived_create(self: Conn, target: int = 1_000_000) -> str:
    """A counter game that waives client entropy: no ClientSeedBound."""
    reply = await self.request(
        {
            "type": "create",
            "ruleset": "counter",
            "setup": {"target": target},
            "client_entropy": "waived",
        }
    )
    assert reply.game_id is not None
    return reply.game_id


async def per_game(waived: bool) -> float:
    """RSS growth per active game of a fresh gateway, in bytes."""
    embedded = project("server.embedded").EmbeddedRedis
    bound = wsload.Conn.create
    if waived:
        wsload.Conn.create = _waived_create  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="umpire-bench-memory-") as tmp:
            server = embedded(Path(tmp) / "redis", appendfsync="everysec").start()
            gateway = GatewayProcess(server.url, Path(tmp), prefix="bm")
            try:
                _, grown = await path.fan_out_many_games(gateway, 1000, 1)
                return grown
            finally:
                gateway.stop()
                server.stop()
    finally:
        wsload.Conn.create = bound  # type: ignore[method-assign]


async def main(runs: int, as_created_only: bool) -> None:
    path.raise_open_files()
    console = Console()
    for run in range(1, runs + 1):
        bound = await per_game(waived=False)
        line = f"run {run}: {bound:,.0f} B per game as the clients create games"
        if not as_created_only:
            waived = await per_game(waived=True)
            line += f", {waived:,.0f} B per game with client entropy waived"
        console.print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--as-created-only", action="store_true")
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.as_created_only))
