"""The receipts of `state` frames are signed (docs/audit.md 8.4) and every verifier counts them.

The README's flow: a game created and played through the gateway with the Python client,
which keeps every receipt (its `view`s and pushed states too) where `umpire audit GAME`
finds them. Before state receipts were signed, that audit of an honest first game said
"2 receipts are not signed by the game's key (lines ...)": an alarm that proved nothing.
Now it reports no unsigned receipt and counts the state lines; `verify_export.py` alike; a
state line with one field changed is not signed by the game's key, and counts for nothing.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from umpire.clients import UmpireClient
from umpire.clients.receipts import ReceiptFiles
from umpire.events.plurals import counted
from umpire.events.wire import ViewState
from umpire.server.app import Running
from umpire.server.receipts_file import receipts_path
from umpire.testing.support.forgery import Cli
from umpire.testing.support.verifier import verify_with


async def _played(cli: Cli, ws_url: str) -> tuple[str, Path]:
    """A counter game played through the gateway: created, viewed, a command, the pushed
    state after it, viewed again; (its id, the receipts file the client kept where
    `umpire audit GAME` looks)."""
    files = ReceiptFiles(cli.tmp / "data" / "receipts")
    async with UmpireClient(ws_url, receipts=files) as client:
        created = await client.create("counter", {"target": 1000})
        gid = created.game_id
        await client.view(gid)
        states = client.subscribe(gid, view=True, views=True)
        await anext(states)
        accepted = await client.send(gid, {"type": "Add", "amount": 2})
        async for item in states:
            if isinstance(item, ViewState) and item.seq == accepted.head_seq:
                break
        await states.aclose()
        await client.view(gid)
    kept = receipts_path(cli.tmp / "data", gid)
    assert kept == files.path(gid)
    return gid, kept


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _run(cli: Cli, *argv: str) -> Any:
    """`umpire ARGV` off the loop (it runs its own), the gateway serving meanwhile."""
    return await asyncio.to_thread(cli, *argv)


async def test_the_readme_flows_audit_counts_the_state_receipts_and_none_is_unsigned(
    gateway: Running, ws_url: str, cli: Cli
) -> None:
    gid, kept = await _played(cli, ws_url)
    lines = [json.loads(line) for line in kept.read_text().splitlines()[1:]]
    receipts = [line for line in lines if line["kind"] == "receipt"]
    states = [line for line in receipts if line["reply"] == "state"]
    assert len(states) == 4 and all(line["signature"] for line in states), states
    assert not any("client_check" in line for line in receipts)
    commitments = len(lines) - len(receipts)
    said = (
        f"anchored: {counted(len(receipts), 'signed receipt')} and "
        f"{counted(commitments, 'commitment')} agree"
    )
    audited = await _run(cli, "audit", gid)
    out = _flat(audited.out)
    assert audited.code == 0 and said in out, audited
    assert "not signed" not in out, out
    export = await asyncio.to_thread(cli.export, gid, "--operator")
    from_file = await _run(cli, "audit", "--file", str(export), "--receipts", str(kept))
    for code, text in (verify_with(export, "--receipts", str(kept)),
                       (from_file.code, from_file.out)):  # fmt: skip
        assert code == 0 and said in _flat(text) and "not signed" not in text, text


async def test_a_state_receipt_with_one_field_changed_counts_for_nothing(
    gateway: Running, ws_url: str, cli: Cli
) -> None:
    gid, kept = await _played(cli, ws_url)
    header, *lines = kept.read_text().splitlines()
    export = await asyncio.to_thread(cli.export, gid, "--operator")
    index = max(i for i, line in enumerate(lines) if json.loads(line).get("reply") == "state")
    for field, value in (("state_hash", "0" * 64), ("role", "spectator"), ("first_seq", 1)):
        changed = json.loads(lines[index]) | {field: value}
        doctored = cli.tmp / f"doctored-{field}.jsonl"
        text = [header, *lines[:index], json.dumps(changed), *lines[index + 1 :]]
        doctored.write_text("\n".join(text) + "\n")
        line_no = index + 2  # the header is line 1
        audited = await _run(cli, "audit", "--file", str(export), "--receipts", str(doctored))
        for code, text_out in (verify_with(export, "--receipts", str(doctored)),
                               (audited.code, audited.out)):  # fmt: skip
            flat = _flat(text_out)
            assert code == 0, text_out
            assert f"1 receipt is not signed by the game's key (lines {line_no})" in flat, flat
