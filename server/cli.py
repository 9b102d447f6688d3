"""The `umpire` command line.

Store commands (`new`, `send`, `log`, `games`, `reveal`, `audit`, `export`, `import`,
`rulesets`) work directly against the store, so a game can be driven without the gateway.
`serve` runs the gateway; `watch` and `play` are clients of a running gateway.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from engine import registry
from engine.game import codec_for, ruleset_of
from events.errors import UmpireError
from events.terminal_text import printable_json, shown
from server.config import Settings, SettingsError, from_env
from server.render import describe
from server.store_access import open_store

console = Console()
err_console = Console(stderr=True)


def _json_arg(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UmpireError(f"{what} is not valid JSON: {exc.msg} at column {exc.colno}") from exc


def load_extra_rulesets(settings: Settings) -> None:
    """Register rulesets named in UMPIRE_EXTRA_RULESETS (module:ATTR)."""
    for spec in settings.extra_rulesets:
        registry.load_module(spec)


async def cmd_new(settings: Settings, args: argparse.Namespace) -> int:
    from server.games import Games

    setup = _json_arg(args.setup, "--setup") if args.setup else {}
    async with open_store(settings) as store:
        created = await Games(store).create(
            args.ruleset, setup, client_seed=args.client_seed, game_id=args.game_id
        )
        if args.json:
            out = {
                "game_id": created.game_id,
                "seed_commitment": created.seed_commitment,
                "client_seed": created.client_seed,
            }
            print(json.dumps(out))
        else:
            console.print(f"created game [bold]{created.game_id}[/] ({created.ruleset})")
            console.print(f"seed commitment {created.seed_commitment}")
            console.print(f"client seed     {shown(created.client_seed)}")
    return 0


async def cmd_send(settings: Settings, args: argparse.Namespace) -> int:
    import secrets

    from server.games import Games

    command = _json_arg(args.command, "COMMAND-JSON")
    dice = _json_arg(args.dice, "--dice") if args.dice else None
    command_id = args.command_id or "cli-" + secrets.token_hex(8)
    async with open_store(settings) as store:
        games = Games(store)
        result = await games.handle(args.game, command_id, command, manual_dice=dice)
        ruleset, _ = await games.load(args.game)
        envelopes = await store.read(args.game, result.first_seq, result.last_seq)
        codec = codec_for(ruleset)
        note = " (already applied: first result returned)" if result.duplicate else ""
        console.print(f"command {command_id} → seqs {result.first_seq}..{result.last_seq}{note}")
        for env in envelopes:
            event = codec.decode(env.type, env.version, env.payload)
            console.print(f"  {env.seq:>5}  {shown(describe(event))}")
    return 0


async def cmd_log(settings: Settings, args: argparse.Namespace) -> int:
    async with open_store(settings) as store:
        envelopes = await store.read(args.game, args.from_seq)
        if not envelopes and args.from_seq <= 1:
            raise UmpireError(f"no game {args.game!r}")
        first = envelopes[0] if args.from_seq <= 1 else (await store.read(args.game, 1, 1))[0]
        codec = codec_for(ruleset_of(first))
        if args.json:
            from events.export import envelope_to_line

            for env in envelopes:
                print(printable_json(envelope_to_line(env, codec)))
            return 0
        table = Table(title=f"game {args.game}", show_lines=False)
        for column in ("seq", "time", "type", "what"):
            table.add_column(column)
        for env in envelopes:
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            when = shown(env.recorded_at[11:23])
            table.add_row(str(env.seq), when, env.type, shown(describe(event)))
        console.print(table)
    return 0


async def cmd_games(settings: Settings, args: argparse.Namespace) -> int:
    async with open_store(settings) as store:
        table = Table(title="games")
        for column in ("game", "ruleset", "events"):
            table.add_column(column)
        for game_id in await store.games():
            first = await store.read(game_id, 1, 1)
            name = ruleset_of(first[0]).name if first else "?"
            table.add_row(game_id, name, str(await store.version(game_id)))
        console.print(table)
    return 0


async def cmd_reveal(settings: Settings, args: argparse.Namespace) -> int:
    from server.games import Games

    async with open_store(settings) as store:
        result = await Games(store).reveal(args.game)
        console.print(f"seed revealed at seq {result.last_seq}")
    return 0


async def cmd_revoke(settings: Settings, args: argparse.Namespace) -> int:
    from server.credentials import revoke

    async with open_store(settings) as store:
        existed = await revoke(store, args.credential)
    if not existed:
        err_console.print("[yellow]no such credential[/] (already revoked, or never issued)")
        return 1
    console.print("credential revoked: gateways refuse it from its next command on")
    return 0


def cmd_rulesets(settings: Settings, args: argparse.Namespace) -> int:
    for name in registry.available():
        try:
            ruleset = registry.get(name)
        except UmpireError as exc:
            console.print(f"{name:20} [red]unavailable[/]: {shown(str(exc))}")
            continue
        console.print(f"{name:20} v{ruleset.version}  {ruleset.title}")
    return 0


async def cmd_watch(settings: Settings, args: argparse.Namespace) -> int:
    from clients.cli import watch

    return await watch(_url(settings, args), args.credential, args.game, args.from_seq, args.limit)


async def cmd_play(settings: Settings, args: argparse.Namespace) -> int:
    from clients.cli import play

    return await play(_url(settings, args), args.credential, args.game)


def _url(settings: Settings, args: argparse.Namespace) -> str:
    return str(args.url or f"ws://{settings.host}:{settings.port}/ws")


def cmd_serve(settings: Settings, args: argparse.Namespace) -> int:
    from server.app import run

    return run(settings)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `umpire`."""
    parser = argparse.ArgumentParser(prog="umpire", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, help="data directory of the embedded server")
    sub = parser.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("serve", help="run the gateway (and the embedded Redis unless REDIS_URL)")
    p.add_argument("--host")
    p.add_argument("--port", type=int)

    p = sub.add_parser("new", help="create a game")
    p.add_argument("ruleset")
    p.add_argument("--setup", help="setup as JSON")
    p.add_argument("--client-seed")
    p.add_argument("--game-id")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("send", help="send a player command to a game")
    p.add_argument("game")
    p.add_argument("command", metavar="COMMAND-JSON")
    p.add_argument("--command-id")
    p.add_argument("--dice", help='manual dice as JSON, one list per roll, e.g. "[[3],[4,2]]"')

    p = sub.add_parser("log", help="print a game's log")
    p.add_argument("game")
    p.add_argument("--from", dest="from_seq", type=int, default=1)
    p.add_argument("--json", action="store_true", help="JSON Lines (the export format)")

    sub.add_parser("games", help="list games")
    p = sub.add_parser("reveal", help="publish a game's dice seed")
    p.add_argument("game")
    p = sub.add_parser("revoke", help="revoke a game credential (operator)")
    p.add_argument("credential")
    sub.add_parser("rulesets", help="list installed rulesets")

    for name, text in (
        ("watch", "follow a game's events live through a gateway"),
        ("play", "send commands (JSON lines on stdin) through a gateway"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("game", nargs="?", help="game id (default: the credential's game)")
        p.add_argument("--credential", required=True, help="player or spectator credential")
        p.add_argument("--url", help="gateway websocket URL (default ws://HOST:PORT/ws)")
        if name == "watch":
            p.add_argument("--from", dest="from_seq", type=int, default=0)
            p.add_argument("--limit", type=int, default=0, help="stop after N events")
    _add_log_commands(sub)
    return parser


def _add_log_commands(sub: Any) -> None:
    """audit, replay, explain, readjudicate, export, import (docs/viewer.md)."""
    from server import audit_command, export_command, replay_command

    p = sub.add_parser("audit", help="verify a game's log: chain, dice, every decision")
    audit_command.add_arguments(p)
    p = sub.add_parser("replay", help="a game's state at a seq, or what changed between two")
    replay_command.add_replay_arguments(p)
    p = sub.add_parser("explain", help="one event in plain words: rule, dice, candidates")
    replay_command.add_explain_arguments(p)
    p = sub.add_parser("readjudicate", help="re-run a game under the current or given rules")
    replay_command.add_readjudicate_arguments(p)
    p = sub.add_parser("export", help="write a game as JSON Lines (umpire-export/1)")
    export_command.add_export_arguments(p)
    p = sub.add_parser("import", help="load an export into this store, hashes unchanged")
    export_command.add_import_arguments(p)


async def _cmd_audit(settings: Settings, args: argparse.Namespace) -> int:
    from server.audit_command import cmd_audit

    return await cmd_audit(settings, args)


async def _cmd_replay(settings: Settings, args: argparse.Namespace) -> int:
    from server.replay_command import cmd_replay

    return await cmd_replay(settings, args)


async def _cmd_explain(settings: Settings, args: argparse.Namespace) -> int:
    from server.replay_command import cmd_explain

    return await cmd_explain(settings, args)


async def _cmd_readjudicate(settings: Settings, args: argparse.Namespace) -> int:
    from server.replay_command import cmd_readjudicate

    return await cmd_readjudicate(settings, args)


async def _cmd_export(settings: Settings, args: argparse.Namespace) -> int:
    from server.export_command import cmd_export

    return await cmd_export(settings, args)


async def _cmd_import(settings: Settings, args: argparse.Namespace) -> int:
    from server.export_command import cmd_import

    return await cmd_import(settings, args)


HANDLERS = {
    "new": cmd_new,
    "send": cmd_send,
    "log": cmd_log,
    "games": cmd_games,
    "reveal": cmd_reveal,
    "revoke": cmd_revoke,
    "rulesets": cmd_rulesets,
    "serve": cmd_serve,
    "watch": cmd_watch,
    "play": cmd_play,
    "audit": _cmd_audit,
    "replay": _cmd_replay,
    "explain": _cmd_explain,
    "readjudicate": _cmd_readjudicate,
    "export": _cmd_export,
    "import": _cmd_import,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `umpire` console script."""
    args = build_parser().parse_args(argv)
    try:
        overrides: dict[str, Any] = {"data_dir": args.data_dir}
        if args.cmd == "serve":
            overrides.update(host=args.host, port=args.port)
        settings = from_env(**overrides)
        load_extra_rulesets(settings)
        handler = HANDLERS[args.cmd]
        result = handler(settings, args)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
        return int(result)
    except (UmpireError, SettingsError) as exc:
        code = getattr(exc, "code", "settings")
        err_console.print(f"[red]error[/] ({code}): {shown(str(exc))}")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
