"""The dispute panel at the table (issue 40 item 5), in a real headless Chromium against a
real gateway: a Down in Flames game played to the gyro sight reading's probe (an attack of
3 bursts from Advantaged); the umpire's decision on that attack gets a "Dispute" control;
the player files a claim under the declared reading `gyro_reading = 10.9` (2 bursts) and
sees the finding (the verdict, and as played / under the reading side by side where the
lines part), as `dispute_filed` answered it. The player may rule (a solo game's
referee): "Uphold" and "Amend" are offered, and a spectator's page offers neither; "Amend"
from the page sends `rule`, shows the answer, and greys the line the amendment
superseded, each row noting the ruling and offering "Dispute" no more, with the amended
line's events marked. Its screenshot is
test-artifacts/viewer/dispute-panel.png; with UMPIRE_DOCS_SHOTS=1 also
docs/screenshots/dispute-panel.png (docs/viewer.md)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.engine.kit.reading import probe_of
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running
from umpire.server.games import Games
from umpire.testing.support.drivers import driven_setup

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "dispute-panel.png"


async def test_a_decision_is_disputed_from_the_table(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        reading = registry.get("down_in_flames").readings[0]
        setup, script = probe_of(reading, driven_setup("down_in_flames"))
        created = await client.create("down_in_flames", setup, client_entropy="waived")
        for n, command in enumerate(script):
            accepted = await client.send(created.game_id, command, command_id=f"p{n}")
        head = accepted.seqs[-1]
        # The attack's first decision (its CommandRecorded is accepted.seqs[0]).
        disputed = accepted.seqs[1]
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector(f'#events li[data-seq="{head}"]', timeout=TIMEOUT)
        # Seq 1 (GameCreated) and 2 (CommandRecorded) are no decision: no control.
        assert await page.locator('#events li[data-seq="2"] details.dispute').count() == 0
        row = page.locator(f'#events li[data-seq="{disputed}"]')
        box = row.locator("details.dispute")
        await box.locator("summary").click()
        await box.locator("textarea").fill("a gyro sight fires 2 bursts from Advantaged")
        await box.locator("select").select_option(f"{reading.name}=10.9")
        await box.locator("button").click()
        await row.locator(".finding .verdict").wait_for(timeout=TIMEOUT)
        verdict = await box.locator(".verdict").inner_text()
        assert verdict.startswith("Finding: ")
        filed = await box.get_attribute("data-dispute")
        assert filed is not None and int(filed) == head + 1
        # The reading parts the lines: the two sides are shown where they part.
        assert "under that reading the game goes otherwise from seq" in verdict
        assert await box.locator("table.side-by-side").count() == 1
        # A spectator may not rule: its page offers no ruling, on the finding's row or
        # in its own dispute box; the player's page offers both buttons.
        found_row = f'#events li[data-type="DisputeFound"][data-seq="{int(filed) + 1}"]'
        watcher = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(watcher, port, created.spectator_credential)
        await watcher.wait_for_selector(found_row, timeout=TIMEOUT)
        assert await watcher.locator(".ruling").count() == 0
        await watcher.close()
        offer = f"{found_row} .ruling button[data-ruling=amend]"
        await page.wait_for_selector(offer, timeout=TIMEOUT)
        ruling = box.locator(".ruling")
        assert await ruling.locator("button").all_inner_texts() == ["Uphold", "Amend"]
        await ruling.locator("button[data-ruling=amend]").click()
        await ruling.locator(".ruled").wait_for(timeout=TIMEOUT)
        assert (await ruling.locator(".ruled").inner_text()).startswith("Ruled: amend (seq ")
        marker = page.locator('#events li[data-type="GameAmended"]')
        await marker.locator(".amend-note").wait_for(timeout=TIMEOUT)
        amended = await page.evaluate(
            "[...window.umpireViewer.frames.values()]"
            ".find((f) => f.event_type === 'GameAmended').payload"
        )
        assert amended["dispute"] == int(filed) and amended["parts_from"] <= disputed
        assert (await marker.locator(".amend-note").inner_text()).startswith(
            f"the ruling on dispute {filed} amends the game from seq {amended['parts_from']}"
        )
        # The amended line: the events after GameAmended in its ruling's batch, each marked
        # (none here: under the reading the disputed attack is itself no longer legal, so
        # the re-application stops at it and play goes on from the state before it).
        line = await page.evaluate(
            "(() => { const fs = [...window.umpireViewer.frames.values()];"
            " const m = fs.find((f) => f.event_type === 'GameAmended');"
            " return fs.filter((f) => f.seq > m.seq && f.command_id === m.command_id).length; })()"
        )
        assert await page.locator("#events li.amended").count() == line
        assert amended["stopped"] and amended["reapplied"] == 0
        note = (
            f"superseded by the ruling on dispute {filed} "
            f"(amended from seq {amended['parts_from']})"
        )
        for seq in range(amended["parts_from"], amended["superseded_to"] + 1):
            row = page.locator(f'#events li[data-seq="{seq}"]')
            assert await row.get_attribute("class") == "superseded", seq
            assert note in await row.inner_text()
        assert await page.locator("#events li.superseded").count() == (
            amended["superseded_to"] - amended["parts_from"] + 1
        )
        # A superseded seq is no longer part of the game (the server refuses its dispute,
        # seq_superseded): no row of the superseded line offers "Dispute" any more; the
        # disputed row keeps its dispute's finding and ruling, without the form.
        gone = "#events li.superseded details.dispute"
        assert await page.locator(f"{gone}:not([data-dispute])").count() == 0
        assert await page.locator(f"{gone} textarea").count() == 0
        assert await box.locator(".verdict").count() == 1
        # A page opened now draws the superseded line without the control; the current
        # line's decisions keep it.
        fresh = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(fresh, port, created.player_credential)
        await fresh.locator('#events li[data-type="GameAmended"] .amend-note').wait_for(
            timeout=TIMEOUT
        )
        assert await fresh.locator("#events li.superseded").count() == (
            amended["superseded_to"] - amended["parts_from"] + 1
        )
        assert await fresh.locator("#events li.superseded details.dispute").count() == 0
        assert await fresh.locator("#events li:not(.superseded) details.dispute").count() > 0
        await fresh.close()
        # The ruling closed the dispute: its finding's row offers the ruling no more.
        await page.wait_for_selector(f"{found_row} .ruling", state="detached", timeout=TIMEOUT)
        await ruling.scroll_into_view_if_needed()
        await page.screenshot(path=str(artifacts / "dispute-panel.png"), full_page=False)
        if os.environ.get("UMPIRE_DOCS_SHOTS") == "1":  # docs change only when asked
            SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(artifacts / "dispute-panel.png", SCREENSHOT)


async def test_the_player_of_a_game_refereed_by_the_operator_sees_no_ruling(
    browser: Any, viewer_gateway: Running
) -> None:
    """A game created with `referee: "operator"` (GameCreated.referee): its player's page
    shows the finding of a dispute but offers no ruling (the operator rules)."""
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        reading = registry.get("down_in_flames").readings[0]
        setup, script = probe_of(reading, driven_setup("down_in_flames"))
        created = await client.create(
            "down_in_flames", setup, client_entropy="waived", referee="operator"
        )
        for n, command in enumerate(script):
            accepted = await client.send(created.game_id, command, command_id=f"p{n}")
        filed = await client.request({"type": "dispute", "game_id": created.game_id,
                                      "seq": accepted.seqs[1], "claim": "2 bursts",
                                      "reading": reading.name, "value": "10.9"})  # fmt: skip
        assert filed.finding is not None
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        found = f'#events li[data-type="DisputeFound"][data-seq="{filed.dispute + 1}"]'
        await page.wait_for_selector(found, timeout=TIMEOUT)
        assert await page.locator(".ruling").count() == 0


LONG = 301  # a GameCreated and 150 Adds of two events each: more than the page reads at first
RECENT = 200  # the events of the log the page reads as it opens (clients/web/viewer.js)


async def test_a_long_game_refereed_by_the_operator_offers_its_player_no_ruling(
    browser: Any, viewer_gateway: Running, games: Games
) -> None:
    """A long game opens at its last events, without its GameCreated: the page learns who
    referees from the head's `state` frame (`referee`), so the player of a game refereed
    by the operator sees the finding of a dispute in the window but no ruling."""
    game_id = (await games.create("counter", {"target": 10**6}, referee="operator")).game_id
    for n in range((LONG - 1) // 2):
        await games.handle(game_id, f"add-{n}", {"type": "Add", "amount": 1})
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=LONG, claim="one too many")
    assert filed.finding is not None
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/#credential={player}")
    found = f'#events li[data-type="DisputeFound"][data-seq="{filed.id + 1}"]'
    await page.wait_for_selector(found, timeout=TIMEOUT)
    assert await page.locator('#events li[data-seq="1"]').count() == 0  # never read
    assert await page.locator(f'#events li[data-seq="{LONG - RECENT}"]').count() == 0
    assert await page.evaluate("window.umpireViewer.referee") == "operator"
    assert await page.locator(f'#events li[data-seq="{LONG}"] details.dispute').count() == 1
    assert await page.locator(".ruling").count() == 0
    await page.close()
