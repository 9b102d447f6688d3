"""Hostile clients as a process of their own: `python -m bench.hostile_load
CONFIG.json`. Each connection loops the gateway's most expensive requests as fast as it
is answered (a replay to an old or a random seq, a listing over every game it holds, a
create, a subscribe from seq 0), reconnecting when it is closed. Prints a JSON summary
of the answers (by type or error code) when its time is up.

A separate process, so the test process measuring a normal player is not slowed by
running the attackers itself."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sys
import time
from collections import Counter
from typing import Any

import msgspec
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

KINDS = ["old", "random", "list", "create", "subscribe"]


async def attacker(n: int, config: dict[str, Any], until: float, seen: Counter[str]) -> None:
    rng = random.Random(n)
    ids = itertools.count()
    game, head = config["game_id"], config["head"]
    while time.monotonic() < until:
        try:
            async with connect(
                config["url"], max_size=2**24, open_timeout=5,
                local_addr=(config["source"], 0),
            ) as ws:  # fmt: skip
                await ws.recv()  # welcome
                for credential in config["credentials"]:
                    await ws.send(json.dumps({"type": "auth", "credential": credential}))
                    await ws.recv()
                while time.monotonic() < until:
                    kind = rng.choice(config.get("kinds", KINDS))
                    request: dict[str, Any]
                    if kind == "old":
                        request = {"type": "view", "game_id": game, "at_seq": head - 7}
                    elif kind == "random":
                        request = {"type": "view", "game_id": game,
                                   "at_seq": rng.randint(1, head)}  # fmt: skip
                    elif kind == "list":
                        request = {"type": "list_games"}
                    elif kind == "create":
                        request = {"type": "create", "ruleset": "counter", "setup": {}}
                    else:
                        request = {"type": "subscribe", "game_id": game, "from_seq": 0}
                    request["id"] = f"r{next(ids)}"
                    await ws.send(json.dumps(request))
                    while True:  # skip events of a subscription until the answer comes
                        answer = msgspec.json.decode(await ws.recv())
                        if answer.get("id") == request["id"]:
                            break
                    seen[answer.get("code") or answer["type"]] += 1
                    if kind == "subscribe" and answer["type"] == "subscribed":
                        await ws.send(json.dumps({"type": "unsubscribe", "game_id": game}))
        except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
            seen["closed"] += 1
            await asyncio.sleep(0.05)


async def main(config: dict[str, Any]) -> None:
    until = time.monotonic() + config["seconds"]
    seen: Counter[str] = Counter()
    await asyncio.gather(*(attacker(n, config, until, seen) for n in range(config["connections"])))
    print(json.dumps(dict(seen)))


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        asyncio.run(main(json.load(file)))
