"""Instructions per command of the command path's pure work, counted by valgrind.

`python bench/instructions.py [--repo DIR] [--ruleset downtown]` runs one counter `Add`
command's pure work (or with `--ruleset downtown` the peer bench's move, a Downtown
`RollDice` d6 in a game of its default scenario) (decide with the legal-action check,
encode, `is_secret`, seal both envelopes, fold the two events, the receipt's view and hash
as the server makes it, the timestamp) in a loop under valgrind's
cachegrind, once with --calls commands and once with 200, and prints the difference per
command. Instruction counts do not move with the machine's load, so on a machine shared
with other work they compare two checkouts where a timing cannot (README, "Gateway CPU
per command"). `--repo DIR` with DIR's interpreter counts another checkout, e.g.
`/work/wt/base/.venv/bin/python bench/instructions.py --repo /work/wt/base` for 75c63a5
(whose path has no `is_secret` and no receipt: those steps are skipped there).

I/O (the store, the socket) is not counted: `bench/profile.py --cpu-only` measures the
whole gateway.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

# Run as a file (`python bench/instructions.py`), this folder is on sys.path and checkout.py is
# a top-level module; imported as part of the bench package (the tests), it is not. Never
# the --repo checkout's bench: that may predate it.
try:
    from cachegrind import instructions
    from checkout import project
except ImportError:
    from bench.cachegrind import instructions
    from bench.checkout import project

WARM_UP = 20
BASELINE = 200


def _command_loop(repo: Path, calls: int, name: str = "counter") -> None:
    """The pure work of `calls` bench moves of ruleset `name`, one after another on one
    game (the counter's Add, Downtown's RollDice)."""
    # Imported here on purpose: main() put the --repo checkout first on sys.path, so these
    # are that checkout's modules (an older commit's engine).
    import msgspec

    registry = project("engine.registry")
    ServerDice = project("engine.dice").ServerDice
    game_module = project("engine.game")
    Game, apply, codec_for, start = (
        game_module.Game, game_module.apply, game_module.codec_for, game_module.start,
    )  # fmt: skip
    decide_command = project("engine.handling").decide_command
    view_for = project("engine.redaction").view_for
    Role = project("engine.roles").Role
    envelope = project("events.envelope")
    encode_envelope, seal = envelope.encode_envelope, envelope.seal
    PendingEvent = project("events.store").PendingEvent
    GameCreated = project("events.types").GameCreated
    utc_now_iso = project("server.clock").utc_now_iso

    try:
        ruleset = registry.get(name)
    except Exception:  # an older checkout: the counter lived in the tests' support
        sys.path.insert(0, str(repo / "tests" / "support"))
        from counter_ruleset import RULESET  # type: ignore[import-not-found]

        registry.register(RULESET)
        ruleset = RULESET
    is_secret = getattr(project("engine.redaction"), "is_secret", None)
    try:
        receipt_state_hash = project("events.receipt").receipt_state_hash
    except ModuleNotFoundError:  # 75c63a5 had no receipts
        receipt_state_hash = None
    try:  # the server's receipt: a kept view while the state is unchanged
        digests = project("server.view_digests").ViewDigests()
    except ModuleNotFoundError:
        digests = None
    if name == "counter":
        setup: dict[str, Any] = {"target": 1_000_000}
        command: dict[str, Any] = {"type": "Add", "amount": 1}
    else:
        setup = project("engine.scenarios").default_setup(ruleset)
        command = {"type": "RollDice", "dice": "d6", "purpose": "bench"}
    created = GameCreated(
        game_id="g1234567890abcdef", ruleset=name, ruleset_version=ruleset.version,
        setup=setup, seed_commitment="ab" * 32, client_seed="cs",
    )  # fmt: skip
    codec = codec_for(ruleset)
    seed = bytes(32)
    game = start(ruleset, created)
    link = "0" * 64
    takes_seq = "command_id" in apply.__code__.co_varnames

    def one(game: Game, link: str) -> tuple[Game, str]:
        dice = ServerDice(seed, "cs", game.meta.rolls)
        events = decide_command(ruleset, game, command, dice, role=Role.PLAYER)
        pending: list[Any] = []
        for event in events:
            tag, version, payload = codec.encode(event)
            if is_secret is None:
                pending.append(PendingEvent(tag, version, payload))
            else:
                pending.append(PendingEvent(tag, version, payload, is_secret(ruleset, event)))
        now = utc_now_iso()
        seq = game.meta.seq
        for offset, p in enumerate(pending, start=1):
            env = seal(
                game_id=created.game_id, seq=seq + offset, type=p.type, version=p.version,
                payload=p.payload, command_id="b1", recorded_at=now, prev_hash=link,
            )  # fmt: skip
            link = env.hash
            encode_envelope(env)
        for at, event in enumerate(events, start=seq + 1):
            if takes_seq:
                game = apply(ruleset, game, event, seq=at, command_id="b1")
            else:
                game = apply(ruleset, game, event)
        meta = msgspec.structs.replace(game.meta, seq=seq + len(events), last_hash=link)
        game = Game(meta, game.state)
        if digests is not None:
            digests.state_hash(ruleset, game, Role.PLAYER)
        elif receipt_state_hash is not None:
            # As the server hashes it: the view as `view` made it (before 1bc3d62, its
            # builtins; a checkout that old counts one to_builtins more).
            receipt_state_hash(meta.seq, link, view_for(ruleset, game.state, Role.PLAYER,
                                                        revealed=False))  # fmt: skip
        return game, link

    for _ in range(WARM_UP + calls):
        game, link = one(game, link)


def _instructions(python: str, repo: Path, calls: int, name: str = "counter") -> int:
    """Instructions valgrind counted in a child running `calls` commands."""
    return instructions([python, __file__, "--repo", str(repo), "--child", str(calls),
                         "--ruleset", name])  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--calls", type=int, default=1200)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--ruleset", default="counter", help="counter (Add) or downtown (RollDice)")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    if args.child is not None:
        _command_loop(repo, args.child, args.ruleset)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    many = _instructions(sys.executable, repo, args.calls, args.ruleset)
    few = _instructions(sys.executable, repo, BASELINE, args.ruleset)
    per = (many - few) / (args.calls - BASELINE)
    move = "a counter Add" if args.ruleset == "counter" else f"a {args.ruleset} RollDice"
    print(f"{repo}: {per:,.0f} instructions per command (pure work of {move})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
