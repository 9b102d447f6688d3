"""The store commands of `umpire`: `new`, `bind`, `send`, `takeback`, `log`, `state`,
`games`, `reveal`, `revoke`, `rulesets` and `scenarios` work directly against the store, so
a game can be driven without the gateway (server/cli.py parses and runs them).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgspec

from umpire.engine import registry, scenarios
from umpire.engine.citations import names_of, readable
from umpire.engine.errors import ClientSeedRequired, InvalidCommand, InvalidSetup, ManualDiceError
from umpire.engine.game import codec_for, fold, ruleset_of
from umpire.engine.handling import command_types
from umpire.engine.redaction import redact, view_for
from umpire.engine.replay import log_finally_revealed
from umpire.engine.roles import Role
from umpire.engine.schemas import struct_schema
from umpire.events.command_words import command_from_words, json_once, typed_kind
from umpire.events.errors import GameNotFound, UmpireError
from umpire.events.export import envelope_to_line
from umpire.events.nonce_key import derive_nonce, load_nonce_key
from umpire.events.store import Store
from umpire.events.terminal_text import printable_json, shown, terminal
from umpire.events.types import CommandTakenBack
from umpire.server import credentials
from umpire.server.config import Settings
from umpire.server.disk_watch import MB, DiskWatch
from umpire.server.game_log import say_gaps
from umpire.server.game_records import CLIENT_SEED_MAX
from umpire.server.games import Games
from umpire.server.input_files import utf8_text
from umpire.server.public_address import running_gateway, viewer_address
from umpire.server.receipts_file import FOLDER as RECEIPTS_FOLDER
from umpire.server.receipts_file import commitment_anchor, head_receipt, keep
from umpire.server.referee import role_for
from umpire.server.render import describe, receipt_lines, shared_tail, type_words, view_lines
from umpire.server.store_access import open_store
from umpire.server.store_check import missing_seqs

console = terminal()
err_console = terminal(stderr=True)


def _json_arg(text: str, what: str) -> Any:
    try:
        return json_once(text)  # a field given twice is refused, not taken at its last
    except json.JSONDecodeError as exc:
        raise UmpireError(f"{what} is not valid JSON: {exc.msg} at column {exc.colno}") from exc
    except RecursionError:
        raise UmpireError(f"{what} nests arrays or objects too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise UmpireError(f"{what} is not valid: {exc}") from None


def _dice_arg(text: str) -> list[list[int]]:
    """--dice: a list of rolls, each a list of whole-number faces, decoded strictly (a
    `true` or `"4"` face would otherwise reach the log, where it does not decode)."""
    try:
        return msgspec.json.decode(text, type=list[list[int]])
    except msgspec.DecodeError as exc:
        raise ManualDiceError(
            "--dice must be JSON: a list of rolls, each a list of whole-number faces, "
            f'e.g. "[[3],[4,2]]" ({exc})'
        ) from None


def _setup_arg(
    ruleset_name: str, text: str | None, scenario: str | None = None
) -> dict[str, Any] | None:
    """--setup: inline JSON (starts with "{"), or a JSON or TOML file of the player's own."""
    if text is None:
        return None
    if text.lstrip().startswith("{"):
        data = _json_arg(text, "--setup")
        if not isinstance(data, dict):
            raise UmpireError("--setup must be a JSON object of setup fields")
        return data
    path = Path(text)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        # A newcomer copies the README's `--setup my-dogfight.toml`: say where one comes from.
        how = (
            f"; write one of the ruleset's setup fields (umpire scenarios {ruleset_name} "
            f'--schema; an example: "Scenarios and set-up files" in engine/rulesets/'
            f"{ruleset_name}/README.md), or take a ready scenario (umpire scenarios "
            f"{ruleset_name}); nothing was created"
            if isinstance(exc, FileNotFoundError)
            else ""
        )
        raise UmpireError(f"--setup {text!r}: cannot read the file ({exc.strerror}){how}") from exc
    content = utf8_text(raw, f"--setup {text!r}", InvalidSetup)
    ruleset = registry.get(ruleset_name)
    base = scenarios.scenario(ruleset, scenario).setup if scenario else None
    return scenarios.setup_file(ruleset, content, path.name, base)


def command_games(settings: Settings, store: Store) -> Games:
    """Command handling for one CLI command. On the embedded store a write is refused with
    store_full while its disk is under the watermark, as the gateway refuses it
    (server/disk_watch.py): the free space is looked at once, here, before anything is
    written."""
    games = Games(store)
    if settings.redis_url is None and settings.store_min_free_mb > 0:
        games.disk = DiskWatch(settings.data_dir, settings.store_min_free_mb * MB)
        games.disk.check()
    return games


async def cmd_new(settings: Settings, args: argparse.Namespace) -> int:
    """Create a game; then, having its seed commitment, bind a client seed (fresh random
    entropy unless --client-seed is given), or with --waive-client-entropy bind none."""
    if args.ruleset is None:  # argparse's "required: ruleset" named none of them
        names = registry.available()
        raise UmpireError(
            f"umpire new needs a ruleset, one of: {', '.join(names) or 'none installed'}; "
            f"e.g. umpire new {names[0] if names else 'RULESET'} (umpire rulesets says what "
            "each is, umpire scenarios RULESET its ready scenarios)"
        )
    setup = _setup_arg(args.ruleset, args.setup, args.scenario)
    scenario = args.scenario
    if setup is None and scenario is None:
        scenario = registry.get(args.ruleset).default_scenario or None
    waived = args.waive_client_entropy
    if waived and args.client_seed is not None:
        raise UmpireError("--client-seed and --waive-client-entropy exclude each other")
    if args.client_seed is not None and not 1 <= len(args.client_seed) <= CLIENT_SEED_MAX:
        # Checked before the create: refused after it, it left a game with no seed bound.
        raise InvalidCommand(
            f"--client-seed is a string of 1 to {CLIENT_SEED_MAX} characters "
            f"(this one has {len(args.client_seed)}); nothing was created"
        )
    async with open_store(settings) as store:
        games = command_games(settings, store)
        created = await games.create(
            args.ruleset,
            setup,
            client_entropy="waived" if waived else "bind",
            game_id=args.game_id,
            scenario=scenario,
            opponent_manual_dice=args.allow_opponent_dice,
            referee=args.referee,
        )
        # This machine's anchors (docs/audit.md 8.1): the commitment and the created head.
        ruleset, game = await games.load(created.game_id)
        signer = await games.receipt_keys.for_game(created.game_id)
        keep(settings.data_dir, created.game_id, [
            commitment_anchor(0, created.seed_commitment),
            head_receipt(ruleset, game, "created", "", signer=signer),
        ], signer.public_key if signer else "")  # fmt: skip
        client_seed = ""
        if not waived:
            # Only now, with the commitment in the log, is the client's seed chosen.
            client_seed = args.client_seed or secrets.token_hex(16)
            bound = await games.bind_client_seed(created.game_id, client_seed)
            await _keep_head(settings, games, created.game_id, bound.command_id, bound.first_seq)
        player = await credentials.issue(store, created.game_id, Role.PLAYER)
        spectator = await credentials.issue(store, created.game_id, Role.SPECTATOR)
        link = viewer_link(settings, created.game_id, player)
        if args.json:
            out = {
                "game_id": created.game_id,
                "seed_commitment": created.seed_commitment,
                "client_seed": client_seed,
                "client_entropy": created.client_entropy.value,
                "scenario": scenario,
                "player_credential": player,
                "spectator_credential": spectator,
                "viewer": link,
                "opponent_manual_dice": args.allow_opponent_dice,
            }
            print(json.dumps(out))
        else:
            what = f", scenario {scenario}" if scenario else ""
            console.print(f"created game [bold]{created.game_id}[/] ({created.ruleset}{what})")
            console.print(f"seed commitment {created.seed_commitment}")
            if waived:
                console.print("client seed     (waived: the server's seed alone derives the dice)")
            else:
                console.print(f"client seed     {shown(client_seed)} (bound after the commitment)")
            if args.allow_opponent_dice:
                console.print("the player may enter dice for the opponent's rolls")
            console.print(f"player credential    {player}", soft_wrap=True)
            console.print(f"spectator credential {spectator}", soft_wrap=True)
            console.print(f"viewer (player)      {link}", soft_wrap=True, highlight=False)
            if not gateway_address(settings)[1]:
                console.print(
                    "  (no umpire serve runs for this data directory yet: the link opens "
                    f"once `umpire serve` serves port {settings.port})", highlight=False,
                    soft_wrap=True,
                )  # fmt: skip
            console.print("keep the credentials: they are shown once and stored only as hashes")
    return 0


async def _keep_head(
    settings: Settings, games: Games, game_id: str, command_id: str, first_seq: int = 0
) -> None:
    """Keep the receipt of the game's head after a write (docs/audit.md 8.1)."""
    ruleset, game = await games.load(game_id)
    signer = await games.receipt_keys.for_game(game_id)
    keep(settings.data_dir, game_id, [
        head_receipt(ruleset, game, "accepted", command_id, signer=signer, first_seq=first_seq)
    ])  # fmt: skip


def viewer_link(settings: Settings, game_id: str, credential: str) -> str:
    """The viewer's address with the game and credential in the fragment (never sent to the
    server in a request line); a wildcard UMPIRE_HOST named as a browser can open it
    (server/public_address.py)."""
    fragment = urlencode({"game": game_id, "credential": credential})
    return f"{gateway_address(settings)[0]}#{fragment}"


def gateway_address(settings: Settings) -> tuple[str, bool]:
    """The viewer's address and whether a server runs there: the one the running `umpire
    serve` of this data directory published (its --port and --host included), else
    UMPIRE_HOST:UMPIRE_PORT, where nothing serves the link until `umpire serve` runs."""
    running = running_gateway(settings.data_dir)
    if running is not None:
        return running, True
    return viewer_address(settings.host, settings.port, settings.allowed_hosts), False


def cmd_scenarios(settings: Settings, args: argparse.Namespace) -> int:
    ruleset = registry.get(args.ruleset)
    if args.schema:
        print(json.dumps(scenarios.setup_schema(ruleset), indent=2))
        return 0
    from rich.table import Table  # only the table commands pay for it (a third-party module)

    shipped = scenarios.scenarios(ruleset)
    if args.json:
        print(json.dumps([msgspec.to_builtins(s) for s in shipped]))
        return 0
    if not shipped:
        console.print(f"{ruleset.name} ships no scenarios")
        return 0
    table = Table(title=f"{ruleset.name} scenarios (umpire new {ruleset.name} --scenario NAME)")
    for column in ("name", "description", "source"):
        table.add_column(column)
    # A clause every source ends with (downtown's SAMPLE note) is said once, under the table.
    tail = shared_tail([each.source for each in shipped])
    for each in shipped:
        mark = " (default)" if each.name == ruleset.default_scenario else ""
        source = each.source[: len(each.source) - len(tail) - 2] if tail else each.source
        # Citations by the rulebook's title and heading, as `umpire log` shows them.
        table.add_row(
            each.name + mark,
            readable(each.description, names_of(ruleset)),
            readable(source, names_of(ruleset)),
        )
    console.print(table)
    if tail:
        console.print(f"and for every scenario above: {readable(tail, names_of(ruleset))}")
    return 0


async def cmd_bind(settings: Settings, args: argparse.Namespace) -> int:
    """Bind a client seed to the game's current seed epoch (after a mid-game reveal)."""
    client_seed = args.client_seed or secrets.token_hex(16)
    async with open_store(settings) as store:
        games = command_games(settings, store)
        result = await games.bind_client_seed(args.game, client_seed)
        await _keep_head(settings, games, args.game, result.command_id, result.first_seq)
    console.print(f"client seed {client_seed} bound at seq {result.last_seq}")
    return 0


def _nonce(settings: Settings, game_id: str, command_id: str) -> str:
    """A command's nonce under the key kept beside this machine's receipts, the one
    `umpire play` uses too (events/nonce_key.py). Where the folder cannot be written, as
    where a receipt cannot be kept, the command still goes, with a fresh nonce and a
    warning: sent again, it would carry another."""
    folder = Path(settings.data_dir) / RECEIPTS_FOLDER
    try:
        key = load_nonce_key(folder)
    except OSError as exc:
        print(f"umpire: warning: no nonce key could be kept in {folder}: "
              f"{exc.strerror or exc}; this command's nonce is drawn fresh",
              file=sys.stderr)  # fmt: skip
        return secrets.token_hex(16)
    return derive_nonce(key, game_id, command_id)


async def cmd_send(settings: Settings, args: argparse.Namespace) -> int:
    role = role_for(settings, args.role, args.operator_token)
    words: list[str] = args.command
    as_json = len(words) == 1 and words[0].lstrip().startswith("{")
    command = _json_arg(words[0], "COMMAND") if as_json else None
    dice = _dice_arg(args.dice) if args.dice else None
    command_id = args.command_id or "cli-" + secrets.token_hex(8)
    async with open_store(settings) as store:
        games = command_games(settings, store)
        if command is None:  # words, read through the command type's schema
            types = command_types((await games.load(args.game))[0])
            words = [typed_kind(words[0], types), *words[1:]]
            target = types.get(words[0])
            command = command_from_words(words, struct_schema(target) if target else None)
        # The command's nonce: entropy its server rolls also derive from (every command
        # of a game that binds client entropy carries one; docs/security.md), derived
        # from this machine's key so that sending a command id again sends the same one.
        nonce = None if dice else _nonce(settings, args.game, command_id)
        try:
            result = await games.handle(
                args.game, command_id, command, manual_dice=dice, nonce=nonce
            )
        except ClientSeedRequired as exc:
            # The rules' refusal names the protocol's message; here the command line binds.
            raise ClientSeedRequired(
                f"{exc.message}; from the command line: umpire bind {args.game}, then send "
                "the command again",
                **exc.details,
            ) from None
        await _keep_head(settings, games, args.game, command_id, result.first_seq)
        ruleset, game = await games.load(args.game)
        envelopes = await store.read(args.game, result.first_seq, result.last_seq)
        codec = codec_for(ruleset)
        names = names_of(ruleset)  # its own seed: not every installed ruleset imported
        revealed = game.meta.revealed_seed is not None
        note = " (already applied: first result returned)" if result.duplicate else ""
        console.print(f"command {command_id} → seqs {result.first_seq}..{result.last_seq}{note}")
        for env in envelopes:
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            seen = redact(ruleset, event, role, revealed=revealed)
            text = (
                shown(describe(seen, names=names, ruleset=ruleset))
                if seen is not None
                else f"{type_words(env.type, ruleset)} (hidden from you)"
            )
            console.print(f"  {env.seq:>5}  {text}", highlight=False)
    return 0


async def cmd_takeback(settings: Settings, args: argparse.Namespace) -> int:
    """Take back the game's last command (the universal TakeBack): print which command was
    taken back, or (as an error, exit 2) why the takeback rule refuses it now."""
    role_for(settings, args.role, args.operator_token)
    command_id = args.command_id or "cli-" + secrets.token_hex(8)
    async with open_store(settings) as store:
        games = command_games(settings, store)
        result = await games.handle(
            args.game,
            command_id,
            {"type": "TakeBack"},
            nonce=_nonce(settings, args.game, command_id),
        )
        await _keep_head(settings, games, args.game, command_id, result.first_seq)
        ruleset, _ = await games.load(args.game)
        (env,) = await store.read(args.game, result.last_seq, result.last_seq)
    event = codec_for(ruleset).decode(env.type, env.version, env.payload, seq=env.seq)
    assert isinstance(event, CommandTakenBack)
    note = " (already applied: first result returned)" if result.duplicate else ""
    console.print(
        f"took back {event.command_type} (seq {event.seq}, command {shown(event.command_id)})"
        f" → seqs {result.first_seq}..{result.last_seq}{note}",
        highlight=False,
    )
    return 0


async def cmd_log(settings: Settings, args: argparse.Namespace) -> int:
    role = role_for(settings, args.role, args.operator_token)
    async with open_store(settings) as store:
        envelopes = await store.read(args.game, args.from_seq)
        if not envelopes and args.from_seq <= 1:
            raise GameNotFound(f"no game {args.game!r} in this store")
        whole = envelopes if args.from_seq <= 1 else await store.read(args.game)
        # A seq missing mid-log (AOF damage) is named, as `audit` and `store check` name
        # it: the rows alone run on past it without a word (red team 9).
        say_gaps("log", missing_seqs(args.game, whole, await store.version(args.game)))
        codec = codec_for(ruleset_of(whole[0]))
        ruleset = ruleset_of(whole[0])
        # A ruleset secret and a hidden roll show once the log is finally revealed; a
        # mid-game reveal opens neither (engine.redaction).
        revealed = log_finally_revealed(whole)
        if args.json:
            for env in envelopes:
                if role is Role.REFEREE:
                    print(printable_json(envelope_to_line(env, codec)))
                    continue
                event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
                seen = redact(ruleset, event, role, revealed=revealed)
                record = {
                    "game_id": env.game_id,
                    "seq": env.seq,
                    "type": env.type,
                    "version": env.version,
                    "seen_by": role.value,  # not an export line: the role's view
                    "payload": msgspec.to_builtins(seen) if seen is not None else None,
                    "recorded_at": env.recorded_at,
                    "hash": env.hash,
                }
                print(printable_json(json.dumps(record)))
            return 0
        from rich.table import Table  # only the table commands pay for it

        names = names_of(ruleset)  # its own seed: not every installed ruleset imported
        table = Table(title=f"game {args.game}, as the {role.value}", show_lines=False)
        for column in ("seq", "time", "type", "what"):
            table.add_column(column)
        # A taken-back command's batch stays in the log: mark it (command id -> takeback seq).
        taken = {
            event.command_id: env.seq
            for env in whole
            if env.type == "CommandTakenBack"
            and isinstance(
                event := codec.decode(env.type, env.version, env.payload, seq=env.seq),
                CommandTakenBack,
            )
        }
        for env in envelopes:
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            seen = redact(ruleset, event, role, revealed=revealed)
            what = (
                describe(seen, with_type=False, names=names)
                if seen is not None
                else "(hidden from you)"
            )
            if env.command_id in taken:
                what = f"[taken back at seq {taken[env.command_id]}] {what}"
            # The type in words ("SAM reacted"); `log --json` keeps the exact type.
            kind = type_words(env.type, ruleset, seen)
            table.add_row(str(env.seq), shown(env.recorded_at[11:23]), kind, shown(what))
        console.print(table)
        # The receipt of the head as the role gets it (the referee: the player's and the
        # spectator's; docs/audit.md).
        game = fold(whole, ruleset=ruleset)
        if game is not None:
            for line in receipt_lines(ruleset, game, role):
                console.print(f"receipt {line}", soft_wrap=True)
    return 0


async def cmd_state(settings: Settings, args: argparse.Namespace) -> int:

    role = role_for(settings, args.role, args.operator_token)
    async with open_store(settings) as store:
        ruleset, game = await Games(store).load(args.game)
    revealed = game.meta.revealed_seed is not None
    view = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
    if args.json:
        print(printable_json(json.dumps({"game_id": args.game, "seq": game.meta.seq,
                  "role": role.value, "ended": game.meta.ended, "view": view})))  # fmt: skip
        return 0
    status = f"ended: {shown(game.meta.result or '')}" if game.meta.ended else "in play"
    console.print(
        f"game {args.game} ({ruleset.name}) at seq {game.meta.seq}, {status}, "
        f"as the {role.value}{' (seed revealed: everything shown)' if revealed else ''}",
        highlight=False,
    )
    for line in view_lines(view, "  ", ruleset.labels):
        console.print(shown(line), highlight=False, soft_wrap=True)
    return 0


async def cmd_games(settings: Settings, args: argparse.Namespace) -> int:
    from rich.table import Table  # only the table commands pay for it

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

    async with open_store(settings) as store:
        games = command_games(settings, store)
        result = await games.reveal(args.game)
        ruleset, game = await games.load(args.game)
        signer = await games.receipt_keys.for_game(args.game)
        anchors = [head_receipt(ruleset, game, "accepted", result.command_id, signer=signer,
                                first_seq=result.first_seq)]  # fmt: skip
        if game.meta.revealed_seed is None:  # a mid-game reveal commits the next epoch
            anchors.insert(0, commitment_anchor(game.meta.epoch, game.meta.seed_commitment))
        keep(settings.data_dir, args.game, anchors)
        console.print(f"seed revealed at seq {result.last_seq}")
        if game.meta.revealed_seed is None:
            console.print(
                f"the game goes on in seed epoch {game.meta.epoch} under the new commitment "
                f"{game.meta.seed_commitment}"
                + (f"; bind a fresh client seed before its next roll: umpire bind {args.game}"
                   if game.meta.needs_client_seed else "")
            )  # fmt: skip
    return 0


async def cmd_revoke(settings: Settings, args: argparse.Namespace) -> int:
    async with open_store(settings) as store:
        existed = await credentials.revoke(store, args.credential)
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
