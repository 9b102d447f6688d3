"""A game made under an older version of its rules, audited with its receipts under the
installed version: the views the old server showed may not be made again (a field the
rules left out since, a word corrected), so a receipt's state hash that differs proves
nothing against the server. `umpire audit` and `export` called that "a state the log does
not make", a forgery, on an honest game with receipts kept under an older version
(rules10-a left out non-Leaders' hands from Down in Flames' view; every view change of
the nine sessions before did the same to older games). They now say the state hashes
were not checked, and why; the head hashes still anchor every event."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from tests.rulesets.downtown.setups import SETUP
from umpire.clients import UmpireClient
from umpire.clients.receipts import ReceiptFiles
from umpire.engine import registry
from umpire.engine.roles import Role
from umpire.events.receipt import check_anchors, read_receipts
from umpire.server.app import Running
from umpire.server.receipts_file import check_state_hashes, views_unchecked


async def test_receipts_of_an_older_versions_views_are_not_called_forged(
    gateway: Running, ws_url: str, tmp_path: Path
) -> None:
    files = ReceiptFiles(tmp_path / "receipts")
    async with UmpireClient(ws_url, receipts=files) as client:
        created = await client.create("downtown", SETUP)
        gid = created.game_id
        await client.send(gid, {"type": "DeployGroundUnits"})
        log = await gateway.gateway.store.read(gid)
    _, anchors = read_receipts(files.path(gid).read_text())
    assert check_anchors(anchors, log)[0] is None
    installed = registry.get("downtown")
    # The same game under the rules as they were made: every state hash is checked.
    assert views_unchecked(log, installed) == ""
    assert check_state_hashes(anchors, log, installed) is None
    # The installed rules one version on, whose view leaves a field out.
    old_view = installed.view

    def view(state: Any, role: Role) -> Any:
        shown = old_view(state, role)
        return {k: v for k, v in shown.items() if k != "turn"} if isinstance(shown, dict) else shown

    later = dataclasses.replace(installed, version=f"{installed.version}0", view=view)
    # Checked under them, an honest log's receipts would read as a forgery ...
    failure = check_state_hashes(anchors, log, later)
    assert failure is not None and "does not make" in failure.message
    # ... which is why they are not checked, and the reason names both versions.
    why = views_unchecked(log, later)
    assert f"v{installed.version}," in why and f"v{later.version}" in why, why
