"""Client-side command line: `umpire watch` (live, readable event log) and `umpire play`
(send commands typed a line each, as words or JSON), both over a running gateway's
websocket. The `umpire` command line finds them through clients/commands.py and imports
this module only to run one."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Collection
from typing import Any

import msgspec
from websockets.exceptions import ConnectionClosed, InvalidURI

from umpire.clients.client import ReceiptNotSigned, UmpireClient, UmpireError
from umpire.clients.commands import CREDENTIAL_ENV
from umpire.clients.receipts import machine_receipts
from umpire.clients.ruleset_listing import Listing
from umpire.clients.state_table import StateWords, changed_tracks, state_table
from umpire.events import errors
from umpire.events.action_text import field_names, render
from umpire.events.citation_words import SeedNames, cited_in_words
from umpire.events.command_words import command_from_words, json_once, typed_kind
from umpire.events.rules_words import (
    field_text,
    fields_said,
    in_words,
    kind_in_words,
    universal_said,
)
from umpire.events.terminal_text import printable, shown, terminal
from umpire.events.types import UNIVERSAL_EVENT_TYPES
from umpire.events.wire import Accepted, EventFrame, ViewState

console = terminal()
err_console = terminal(stderr=True)


def describe_frame(
    frame: EventFrame, capitals: Collection[str] = (), names: SeedNames | None = None
) -> str:
    """One readable line for an event frame, safe to print: control characters in what a
    player (or the server) wrote are escaped; rich markup is escaped where it is printed.
    The rules' text and the event's type are said in words (events/rules_words.py; the
    ruleset's `capitals`), its citations by the rulebook's titles (`names`,
    events/citation_words.py), as `umpire log` and the browser table say them (`Words`);
    a command's fields stay as typed."""
    return printable(cited_in_words(_describe_frame(frame, capitals), names or {}))


class Words:
    """What the gateway lists for saying its events (clients/ruleset_listing.py), each
    listing read once, when a frame first needs it."""

    def __init__(self, url: str, client: UmpireClient) -> None:
        self.listing = Listing(url, client.trusted_uids, client.trust_gateway_at)

    async def describe(self, frame: EventFrame) -> str:
        """`describe_frame` with the ruleset's capitals and the seeds' titles."""
        ruleset, dot, _ = frame.event_type.rpartition(".")
        # The game's own events name no ruleset's words.
        capitals = await self.listing.capitals(ruleset) if dot else frozenset()
        return describe_frame(frame, capitals, await self.listing.names())


# The game's own events, which every ruleset's log holds (events/types.py), by their tags.
UNIVERSAL = {str(t.__struct_config__.tag): t for t in UNIVERSAL_EVENT_TYPES}


def _describe_frame(frame: EventFrame, capitals: Collection[str]) -> str:
    p: Any = frame.payload
    kind = kind_in_words(frame.event_type, p, capitals)
    if p is None:
        return f"{kind} (hidden from your role)"
    if not isinstance(p, dict):  # no event's payload: said as it came, not a traceback
        return f"{kind} ({field_text(p)})"
    own = UNIVERSAL.get(frame.event_type)
    if own is not None:
        # The game's own events as `umpire log` says them (events/rules_words.py); a
        # payload that is not one (malformed) is said by its fields, below.
        with contextlib.suppress(msgspec.ValidationError):
            said = universal_said(msgspec.convert(p, own), capitals)
            if said is not None:
                return said
    rule = f" — {p['rule']}" if p.get("rule") else ""
    if p.get("explanation"):
        return f"{kind}: {in_words(str(p['explanation']))}{rule}"
    said = fields_said(p)
    return f"{kind} ({said}){rule}" if said else f"{kind}{rule}"


def refused(exc: BaseException, url: str) -> str:
    """What went wrong talking to the gateway, in one line (no traceback), its control
    characters escaped (a server's message may quote what a player wrote)."""
    return printable(_refusal(exc, url))


def _refusal(exc: BaseException, url: str) -> str:
    if isinstance(exc, UmpireError):
        return f"error ({exc.code}): {exc.message}"
    if isinstance(exc, ConnectionClosed):
        return f"error (connection): the gateway at {url} closed the connection ({exc})"
    if isinstance(exc, ConnectionRefusedError):
        return f"error (connection): nothing answers at {url}: is `umpire serve` running?"
    return f"error (connection): cannot talk to the gateway at {url}: {exc}"


def not_verified(exc: ReceiptNotSigned) -> str:
    """The one line `umpire play` prints for a receipt that did not verify (docs/audit.md
    8.4), its control characters escaped (`why` may quote what the server sent)."""
    return printable(
        f"warning (receipt_not_signed): the server's receipt did not verify (game "
        f"{exc.game_id}, seq {exc.seq}: {exc.why}): the command stands; this receipt "
        "proves nothing, and is kept marked as failed"
    )


GATEWAY_ERRORS = (UmpireError, ConnectionClosed, OSError, TimeoutError, InvalidURI)


async def watch(url: str, credential: str, game_id: str | None, from_seq: int, limit: int) -> int:
    """Print a game's events as they arrive (all of them from `from_seq`); a refused
    credential or an unreachable gateway is one line on stderr and exit code 2."""
    try:
        return await _watch(url, credential, game_id, from_seq, limit)
    except GATEWAY_ERRORS as exc:
        err_console.print(refused(exc, url), markup=False, highlight=False)
        return 2


async def _watch(url: str, credential: str, game_id: str | None, from_seq: int, limit: int) -> int:
    async with UmpireClient(url) as client:
        auth = await client.auth(credential)
        game = game_id or auth.game_id
        console.print(f"watching [bold]{shown(game)}[/] as {shown(auth.role)} (Ctrl-C to stop)")
        words = Words(url, client)
        count = 0
        ended = 0  # the seq of GameEnded, once seen
        async for frame in client.subscribe(game, from_seq):
            if isinstance(frame, ViewState):
                continue
            console.print(f"{frame.seq:>6}  {shown(await words.describe(frame))}")
            if frame.event_type == "GameEnded":
                ended = frame.seq
            elif frame.event_type == "SeedRevealed" and frame.seq == ended + 1:
                # The final reveal: the game is over, but a dispute or a ruling may still
                # come (docs/viewer.md); say why the watch goes on.
                console.print(
                    "        the game has ended; still watching for disputes and rulings "
                    "(Ctrl-C to stop)"
                )
            count += 1
            if limit and count >= limit:
                break
    return 0


async def play(url: str, credential: str, game_id: str | None) -> int:
    """Read commands from stdin, one a line, as words (TYPE FIELD=VALUE ...) or as a JSON
    object, and send each; print the answer. A refused credential or an unreachable
    gateway is one line on stderr and exit code 2."""
    try:
        return await _play(url, credential, game_id)
    except GATEWAY_ERRORS as exc:
        err_console.print(refused(exc, url), markup=False, highlight=False)
        return 2


async def _play(url: str, credential: str, game_id: str | None) -> int:
    # The receipts of what it plays, beside the store CLI's (`umpire receipts GAME`). Its
    # nonce key first: a folder another account controls is refused (one line, exit 2)
    # before anything is sent, not at each command.
    receipts = machine_receipts()
    receipts.nonce_key()
    async with UmpireClient(url, receipts=receipts) as client:
        auth = await client.auth(credential)
        game = game_id or auth.game_id
        console.print(f"playing [bold]{shown(game)}[/]: type a command as words, e.g. "
                      "RollDice dice=d6 purpose=morale, or as a JSON object; "
                      "help lists what you may send now, quit leaves; state shows the "
                      "game as you see it", soft_wrap=True)  # fmt: skip
        words = Words(url, client)
        # The tracks as the player last saw them: each move says those it changed.
        seen = (await client.view(game)).state
        loop = asyncio.get_running_loop()
        # At a terminal, a prompt says it waits for the next line (with line editing);
        # piped commands get none, so a script's output holds the answers alone.
        read = _prompted if sys.stdin.isatty() else sys.stdin.readline
        while True:
            line = await loop.run_in_executor(None, read)
            if not line:
                return 0
            line = line.strip()
            if not line:
                continue
            # The player's own words, not commands (a command's type is capitalised).
            if line.lower() in QUIT_WORDS:
                return 0
            asked = line.split()
            if asked[0].lower() in HELP_WORDS and len(asked) <= 2:
                helped = _help if len(asked) == 1 else _help_on
                for said in await helped(client, game, words, *asked[1:]):
                    console.print(shown(said), soft_wrap=True)
                continue
            if line.lower() in STATE_WORDS:
                seen = await _show_state(client, game, words)
                continue
            try:
                command, dice = await _typed(client, game, line)
                try:
                    accepted = await _sent(client, game, command, dice)
                    unsigned = None
                except ReceiptNotSigned as exc:  # the command stands: say so, then go on
                    assert isinstance(exc.reply, Accepted)
                    accepted, unsigned = exc.reply, exc
                console.print(f"accepted: seqs {accepted.seqs[0]}..{accepted.seqs[-1]}")
                if unsigned is not None:
                    console.print(f"[red]{shown(not_verified(unsigned))}[/]")
                for frame in await events_between(client, game, accepted.seqs):
                    console.print(f"{frame.seq:>6}  {shown(await words.describe(frame))}")
                seen = await _say_changes(client, game, words, seen)
            except json.JSONDecodeError as exc:
                console.print(f"[red]not JSON[/]: {shown(str(exc))}")
            except ValueError as exc:  # shlex: a quote left open
                console.print(f"[red]not words[/]: {shown(str(exc))}")
            except (UmpireError, errors.UmpireError) as exc:  # the gateway's, or the words'
                console.print(f"[red]refused[/] ({shown(exc.code)}): {shown(exc.message)}")


def _prompted() -> str:
    """A line typed at the terminal after the prompt ("" at the end of input, Ctrl-D),
    with the arrow keys' line editing and history where Python has readline."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (input() edits lines once it is loaded)
    try:
        return input(PROMPT) + "\n"
    except EOFError:
        return ""


PROMPT = "umpire> "
# What `umpire play` reads as the player's own words, not as a command to send.
QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?", "actions"})
STATE_WORDS = frozenset({"state", "look"})
# The gateway's refusal of a roll before the epoch's client seed is bound (engine/errors.py
# ClientSeedRequired: clients import no engine).
CLIENT_SEED_REQUIRED = "client_seed_required"


async def _help(client: UmpireClient, game: str, words: Words) -> list[str]:
    """What the player may send now (the view's actions): each type, what it does by the
    rule that allows it, and its fields, then how to type one."""
    view = await client.view(game)
    if not view.actions:
        why = "the game has ended" if view.ended else f"the {view.role} sends no commands now"
        return [f"nothing to send: {why}; quit leaves"]
    names = await words.listing.names()
    lines = ["you may send now:"]
    # The step the rules' sequence of play takes next (Action.next, as the table marks
    # it) comes first and says so; where the order is the player's, none is marked.
    for action in sorted(view.actions, key=lambda a: not a.next):
        mark = "next: " if action.next else ""
        lines.append(f"  {mark}{action.type}  {cited_in_words(action.description, names)}")
        needed, optional = field_names(action)
        if needed:
            more = f"; optional: {', '.join(optional)}" if optional else ""
            lines.append(f"      fields: {', '.join(needed)}{more}")
        elif optional:
            lines.append(f"      optional fields: {', '.join(optional)}")
    lines.append(
        "help TYPE shows a command's fields, the values each takes and an example to copy; "
        "type one as words (TYPE FIELD=VALUE ...) or as a JSON object; state shows the "
        "game as you see it (its tracks, your pieces, the opponent's you may see); quit leaves"
    )
    return lines


async def _state_words(client: UmpireClient, game: str, words: Words) -> tuple[Any, StateWords]:
    """The game's view now and the ruleset's words for it (its /rulesets.json entry)."""
    view = await client.view(game)
    labels, values = await words.listing.labels(view.ruleset)
    return view, StateWords(labels, values, await words.listing.names())


async def _show_state(client: UmpireClient, game: str, words: Words) -> Any:
    """`state`: the game as the player's role sees it now, in the ruleset's words, laid
    out as the table's state panel (clients/state_table.py). Returns the state shown."""
    view, said = await _state_words(client, game, words)
    status = "the game has ended" if view.ended else "in play"
    console.print(
        f"game [bold]{shown(view.game_id)}[/] at seq {view.seq}, {status}, "
        f"as the {shown(view.role)} sees it",
        highlight=False,
    )
    console.print(state_table(view.state, said), highlight=False)
    return view.state


async def _say_changes(client: UmpireClient, game: str, words: Words, seen: Any) -> Any:
    """After a move: the tracks it changed, on one line ("now: Turn: 2 · Phase: ..."),
    nothing where none changed. Returns the state now."""
    view, said = await _state_words(client, game, words)
    changed = changed_tracks(seen, view.state, said)
    if changed:
        console.print(f"now: {shown(changed)} (state shows it all)", highlight=False,
                      soft_wrap=True)  # fmt: skip
    return view.state


async def _help_on(client: UmpireClient, game: str, words: Words, kind: str) -> list[str]:
    """One command the player may send now, as `umpire actions` prints it (events/
    action_text.py): each field with the values it takes, every case of a choice, and an
    example that play takes as printed. A player at a gateway has no store to ask."""
    view = await client.view(game)
    action = next((a for a in view.actions if a.type.lower() == kind.lower()), None)
    if action is None:
        now = ", ".join(a.type for a in view.actions) or "nothing (help says why)"
        return [f"{kind} is not a command you may send now; you may send: {now}"]
    names = await words.listing.names()
    return [cited_in_words(line, names) for line in render(action)]


async def _sent(client: UmpireClient, game: str, command: Any, dice: Any) -> Accepted:
    """Send a command; where it needs a server roll in a seed epoch no client seed is bound
    to yet (after a mid-game reveal: docs/audit.md (4.1)), bind fresh entropy to it, as
    `umpire new` does at creation (the epoch's commitment is already in the log), say so,
    and send the command again: the refused one wrote nothing."""
    try:
        return await client.send(game, command, dice=dice)
    except UmpireError as exc:
        if exc.code != CLIENT_SEED_REQUIRED:
            raise
    bound = await client.bind_seed(game)
    console.print(f"bound a fresh client seed to the game's new seed epoch (seq {bound.seqs[-1]})")
    return await client.send(game, command, dice=dice)


async def _typed(client: UmpireClient, game: str, line: str) -> tuple[Any, Any]:
    """The command a line types and the player's own dice for it (`dice_faces`): a JSON
    object, or words read through the schema of the legal action of that type now (a type
    not offered now goes as typed, for the gateway to refuse with what is allowed)."""
    if line.startswith("{"):
        command = _json(line)
        return command, command.pop("dice_faces", None) if isinstance(command, dict) else None
    words = shlex.split(line)
    faces = [w for w in words if w.startswith("dice_faces=")]
    if len(faces) > 1:  # the last was taken without a word, as no other field is
        raise errors.InvalidCommand("field 'dice_faces' is given twice: give it once")
    words = [w for w in words if w not in faces]
    dice = _json(faces[0].partition("=")[2]) if faces else None
    if not words:
        raise errors.InvalidCommand("a command's first word names its type")
    view = await client.view(game)
    words[0] = typed_kind(words[0], (a.type for a in view.actions))
    schema = next((a.schema for a in view.actions if a.type == words[0]), None)
    return command_from_words(words, schema), dice


def _json(text: str) -> Any:
    """`json_once` of a typed line or value, the parser's own limits refused as `umpire
    send` refuses them (red team 10: a RecursionError ended `play` with a traceback, and
    an integer of more digits than Python converts was said to be "not words")."""
    try:
        return json_once(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise errors.InvalidCommand("the line nests arrays or objects too deeply") from None
    except ValueError as exc:
        raise errors.InvalidCommand(
            f"a number with more digits than a command takes ({str(exc)[:120]})"
        ) from None


async def events_between(client: UmpireClient, game: str, seqs: list[int]) -> list[EventFrame]:
    """The events at `seqs`, read with a short-lived subscription."""
    frames: list[EventFrame] = []
    async for frame in client.subscribe(game, seqs[0] - 1):
        if isinstance(frame, EventFrame):
            frames.append(frame)
            if frame.seq >= seqs[-1]:
                break
    await client.request({"type": "unsubscribe", "game_id": game})
    return frames


async def cmd_watch(args: argparse.Namespace, gateway: str) -> int:
    """`umpire watch` (clients/commands.py): `gateway` is the URL unless --url is given."""
    credential = _credential(args)
    return await watch(args.url or gateway, credential, args.game, args.from_seq, args.limit)


async def cmd_play(args: argparse.Namespace, gateway: str) -> int:
    """`umpire play` (clients/commands.py): `gateway` is the URL unless --url is given."""
    return await play(args.url or gateway, _credential(args), args.game)


def _credential(args: argparse.Namespace) -> str:
    """--credential, else UMPIRE_CREDENTIAL: a long-running watch or play keeps its command
    line in /proc, where every local user reads it; its environment only its owner."""
    credential = args.credential or os.environ.get(CREDENTIAL_ENV, "").strip()
    if not credential:
        raise errors.UmpireError(
            f"umpire {args.cmd} needs a player or spectator credential: set {CREDENTIAL_ENV} "
            "(other local users cannot read it there) or give --credential"
        )
    return str(credential)
