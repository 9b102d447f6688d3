"""Instructions per command of the gateway's own command path, counted by valgrind.

`python bench/command_path.py [--repo DIR] [--ruleset downtown] [--calls N]` starts an
embedded Valkey, then runs one gateway's session and driver in a child under valgrind's
cachegrind: one connection's `command` frames, one after another, each through
`serve_frame` (server/driver.py) from the frame's text to the `accepted` reply in the
session's outbox, with the store's real round trips (append, receipt signing, the cached
game), once with N commands and once with 200, and prints the difference per command.
The move is the peer bench's (bench/wsload.py BENCH_MOVES): Downtown's `RollDice` d6 with
a fresh nonce, or the counter's `Add`.

What `bench/profile.py --instructions` cannot hold still, this does: there the gateway
runs under valgrind for a fixed time against a closed loop, so how many commands share
an append, a signature and the loop's periodic work depends on the machine's load (runs
of one tree differed by 2 to 5%). Here there is one command in flight, no socket, no
load generator and no background task, so two runs of one tree agree to a few hundred
instructions and a cut of 1% shows. Not counted: websockets' framing and the socket
calls (bench/profile.py counts them), and Valkey (another process).

`--repo DIR` with DIR's interpreter counts another checkout (one whose driver has
`serve_frame`), e.g. `/work/wt/base/.venv/bin/python bench/command_path.py --repo
/work/wt/base --ruleset downtown`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a file (`python bench/command_path.py`), this folder is on sys.path and checkout.py
# is a top-level module; imported as part of the bench package, it is not.
try:
    from cachegrind import instructions
    from checkout import project
except ImportError:
    from bench.cachegrind import instructions
    from bench.checkout import project

WARM_UP = 50
BASELINE = 200
# Budgets that never pace the loop: what is counted is the command path, not a wait.
_UNPACED = {
    "max_messages_per_second": 1e9, "max_burst": 10**9, "cost_per_second": 1e12,
    "cost_burst": 1e12, "address_cost_per_second": 1e12, "address_cost_burst": 1e12,
}  # fmt: skip


class _Holder:
    """What the gateway's tables call on a connection; this one has no subscription."""

    def offer(self, batch: Any) -> bool:
        return True

    def lagging(self, sub: Any) -> None:
        pass

    async def rewound(self, sub: Any, head: int) -> None:
        pass

    def lose_game_now(self, game_id: str) -> None:
        pass

    async def lose_game(self, game_id: str) -> None:
        pass


async def _commands(url: str, calls: int, name: str) -> None:
    """`calls` bench moves (after WARM_UP) through one session and its driver."""
    # Imported here on purpose: main() put the --repo checkout first on sys.path, so these
    # are that checkout's modules.
    import msgspec

    RedisEventStore = project("events.redis_store").RedisEventStore
    Games = project("server.games").Games
    Notifier = project("server.notifier").Notifier
    Gateway = project("server.gateway").Gateway
    Settings = project("server.config").Settings
    Session = project("server.session").Session
    serve_frame = project("server.driver").serve_frame

    prefix = f"cp{int(time.time() * 1000) % 10**9}"
    store = RedisEventStore.from_url(url, prefix=prefix)
    notifier = Notifier(store)
    await notifier.start()
    settings = Settings(port=0, prefix=prefix, operator_token="o" * 32, **_UNPACED)
    gw = Gateway(settings, Games(store), notifier)
    session = Session(gw, "192.0.2.1", _Holder(), now=time.monotonic())

    async def reply(message: dict[str, Any]) -> dict[str, Any]:
        await serve_frame(gw, session, msgspec.json.encode(message).decode())
        out = [o for o in session.outbox if isinstance(o, bytes)]
        session.outbox.clear()
        answer: dict[str, Any] = msgspec.json.decode(out[-1])
        return answer

    if name == "counter":
        create = {"type": "create", "ruleset": "counter", "setup": {"target": 1_000_000}}
        body: dict[str, Any] = {"type": "Add", "amount": 1}
    else:
        create = {"type": "create", "ruleset": name, "setup": {}}
        body = {"type": "RollDice", "dice": "d6", "purpose": "bench"}
    created = await reply({**create, "id": "c"})
    game_id = created["game_id"]
    bound = await reply({
        "type": "bind_seed", "game_id": game_id, "client_seed": "bench-seed",
        "credential": created["player_credential"], "id": "b",
    })  # fmt: skip
    assert bound["type"] == "accepted", bound
    for n in range(WARM_UP + calls):
        answer = await reply({
            "type": "command", "game_id": game_id, "command_id": f"m{n}", "command": body,
            "nonce": f"{n:032x}", "id": f"m{n}",
        })  # fmt: skip
        assert answer["type"] == "accepted", answer
    await notifier.stop()
    await store.close()


def _instructions(python: str, repo: Path, url: str, calls: int, name: str) -> int:
    """Instructions valgrind counted in a child running `calls` commands."""
    return instructions([python, __file__, "--repo", str(repo), "--child", str(calls),
                         "--url", url, "--ruleset", name])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--ruleset", default="downtown", help="downtown (RollDice) or counter")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--url", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    if args.child is not None:
        asyncio.run(_commands(args.url, args.child, args.ruleset))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    EmbeddedRedis = project("server.embedded").EmbeddedRedis
    with tempfile.TemporaryDirectory(prefix="umpire-command-path-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        try:
            many = _instructions(sys.executable, repo, server.url, args.calls, args.ruleset)
            few = _instructions(sys.executable, repo, server.url, BASELINE, args.ruleset)
        finally:
            server.stop()
    per = (many - few) / (args.calls - BASELINE)
    print(f"{repo}: {per:,.0f} instructions per command (the command path of {args.ruleset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
