"""Client-side command line: `umpire watch` (live, readable event log) and `umpire play`
(send commands typed as JSON lines), both over a running gateway's websocket."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from rich.console import Console

from clients.client import UmpireClient, UmpireError
from events.terminal_text import printable, shown
from events.wire import EventFrame, ViewState

console = Console()


def describe_frame(frame: EventFrame) -> str:
    """One readable line for an event frame, safe to print: control characters in what a
    player (or the server) wrote are escaped; rich markup is escaped where it is printed."""
    return printable(_describe_frame(frame))


def _describe_frame(frame: EventFrame) -> str:
    p: Any = frame.payload
    if p is None:
        return f"{frame.event_type} (hidden from your role)"
    if frame.event_type == "DiceRolled":
        faces = " ".join(map(str, p["faces"])) if p["faces"] else "hidden"
        return f"roll #{p['roll']} {p['kind']} [{faces}] = {p['total']} ({p['by']}) for " \
            f"{p['purpose']} — {p['rule']}"  # fmt: skip
    if frame.event_type == "CommandRecorded":
        return f"{p['role']} command {p['command_type']} {p['command']}"
    rule = f" — {p['rule']}" if p.get("rule") else ""
    if p.get("explanation"):
        return f"{frame.event_type}: {p['explanation']}{rule}"
    shown = {k: v for k, v in p.items() if k not in ("type", "candidates", "rule")}
    return f"{frame.event_type} {shown}{rule}"


async def watch(url: str, credential: str, game_id: str | None, from_seq: int, limit: int) -> int:
    """Print a game's events as they arrive (all of them from `from_seq`)."""
    async with UmpireClient(url) as client:
        auth = await client.auth(credential)
        game = game_id or auth.game_id
        console.print(f"watching [bold]{shown(game)}[/] as {shown(auth.role)} (Ctrl-C to stop)")
        count = 0
        async for frame in client.subscribe(game, from_seq):
            if isinstance(frame, ViewState):
                continue
            console.print(f"{frame.seq:>6}  {shown(describe_frame(frame))}")
            count += 1
            if limit and count >= limit:
                break
    return 0


async def play(url: str, credential: str, game_id: str | None) -> int:
    """Read commands (one JSON object a line) from stdin and send each; print the answer."""
    async with UmpireClient(url) as client:
        auth = await client.auth(credential)
        game = game_id or auth.game_id
        console.print(f"playing [bold]{shown(game)}[/]: type a command as JSON, e.g. "
                      '{"type": "RollDice", "dice": "d6", "purpose": "morale"}')  # fmt: skip
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return 0
            line = line.strip()
            if not line:
                continue
            try:
                command = json.loads(line)
                dice = command.pop("dice_faces", None) if isinstance(command, dict) else None
                accepted = await client.send(game, command, dice=dice)
                console.print(f"accepted: seqs {accepted.seqs[0]}..{accepted.seqs[-1]}")
                for frame in await events_between(client, game, accepted.seqs):
                    console.print(f"{frame.seq:>6}  {shown(describe_frame(frame))}")
            except json.JSONDecodeError as exc:
                console.print(f"[red]not JSON[/]: {shown(str(exc))}")
            except UmpireError as exc:
                console.print(f"[red]refused[/] ({shown(exc.code)}): {shown(exc.message)}")


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
