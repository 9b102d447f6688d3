"""The browser viewer end to end, in a real headless Chromium against a real gateway:
open a game with a credential, see events arrive live without a reload, scrub back to an
earlier seq and see the earlier state, open a decision's explanation, follow a shared link,
use it by keyboard and at phone width. Screenshots of each step go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.rulesets.downtown.setups import SETUP as DOWNTOWN
from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.server.app import Running


async def _state_seq(page: Any, seq: int) -> None:
    """Wait until the page shows the state it captured at `seq`."""
    await wait_for(
        page,
        f"document.querySelector('#state-label').dataset.stateSeq === '{seq}'",
        timeout=TIMEOUT,
    )


async def _track(page: Any, name: str) -> str:
    """The value of a scalar state field in the Tracks list, named by the counter's label
    for it (`Ruleset.labels`: "Bot pushes (R2)" for `pushes`)."""
    name = registry.get("counter").labels.fields[name]
    script = """(name) => {
        for (const dt of document.querySelectorAll('#state-details .tracks dt'))
            if (dt.textContent === name) return dt.nextElementSibling.textContent;
        return null; }"""
    return str(await page.evaluate(script, name))


async def test_live_events_scrubbing_and_a_shared_link(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, client_entropy="waived")
        gid = created.game_id
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector('#events li[data-seq="1"]', timeout=TIMEOUT)
        await _state_seq(page, 1)
        assert "seen as the player" in await page.inner_text("#game-label")
        await page.screenshot(path=str(artifacts / "01-opened.png"), full_page=True)

        # Live: commands sent by another client appear without a reload.
        await page.evaluate("window.notReloaded = true")
        heads = []
        for command in ({"type": "Push"}, {"type": "Add", "amount": 3}, {"type": "Push"},
                        {"type": "Hide"}):  # fmt: skip
            accepted = await client.send(gid, command)
            heads.append(accepted.seqs[-1])
            await page.wait_for_selector(f'#events li[data-seq="{heads[-1]}"]', timeout=TIMEOUT)
            await _state_seq(page, heads[-1])
        assert heads == [4, 6, 9, 12]
        assert await page.evaluate("window.notReloaded") is True
        assert await page.locator("#dice tbody tr").count() == 3
        assert "Latest state, at seq 12" in await page.inner_text("#state-label")
        assert await _track(page, "pushes") == "2"
        final_total = int(await _track(page, "total"))
        await page.screenshot(path=str(artifacts / "02-live-events.png"), full_page=True)

        # Scrub back to seq 4 (after the first push): the earlier state, later events hidden.
        await page.click('#events li[data-seq="4"] button.seq')
        await _state_seq(page, 4)
        assert "State at seq 4." in await page.inner_text("#state-label")
        assert await _track(page, "pushes") == "1"
        first_push = int(await _track(page, "total"))
        assert 1 <= first_push <= 6 and first_push < final_total
        assert await page.locator('#events li[data-seq="5"]').is_hidden()
        assert "8 later events are hidden" in await page.inner_text("#later-note")
        assert page.url.endswith(f"#game={gid}&seq=4")
        await page.screenshot(path=str(artifacts / "03-scrubbed-to-seq-4.png"), full_page=True)

        # The push's "why": its rule and the die it used, with its face.
        why = page.locator('#events li[data-seq="4"] details.why')
        await why.locator("summary").click()
        text = await why.inner_text()
        assert "Rule: test-counter R2" in text and f"roll 1 (seq 3): d6 [{first_push}]" in text

        # Keyboard: the scrubber moves with the arrow keys; End goes back to the latest.
        await page.focus("#scrubber")
        await page.keyboard.press("ArrowRight")
        assert await page.input_value("#seq-input") == "5"
        await page.keyboard.press("End")
        assert await page.input_value("#seq-input") == "12"

        # A shared link opens at its seq once the reader gives their own credential.
        await page.click('#events li[data-seq="6"] button.seq')
        await page.click("#copy-link")
        link = await page.inner_text("#share-link")
        assert link.endswith(f"#game={gid}&seq=6") and "credential" not in link
        reader = await browser.new_page(viewport={"width": 1000, "height": 800})
        await reader.goto(link)
        # The page asks once its modules have run (it fetches the ruleset listing first).
        await wait_for(
            reader,
            "document.querySelector('#status').textContent.includes('enter your credential')",
            timeout=TIMEOUT,
        )
        assert f"enter your credential for game {gid}" in await reader.inner_text("#status")
        await reader.fill("#credential", created.spectator_credential)
        await reader.click("#open-game button[type=submit]")
        await wait_for(
            reader, "document.querySelector('#seq-input').value === '6'", timeout=TIMEOUT
        )
        assert "seen as the spectator" in await reader.inner_text("#game-label")
        # The log lists the events up to the seq shown (a virtual list builds no row past
        # it): "Latest" shows them all.
        await reader.click("#latest")
        await reader.wait_for_selector('#events li[data-seq="12"]', state="attached")
        secret = await reader.inner_text('#events li[data-seq="12"]')
        assert "hidden from your role" in secret
        await reader.screenshot(path=str(artifacts / "04-shared-link-spectator.png"))
        # The game ends and the seed is revealed: the spectator now sees the secret event.
        await client.send(gid, {"type": "EndGame", "result": "viewer test over"})
        await wait_for(
            reader,
            "document.querySelector('#events li[data-seq=\"12\"] .what')"
            "?.textContent.startsWith('value ')",
            timeout=TIMEOUT,
        )
        # The list draws new rows at most every 250 ms (clients/web/eventlist.js): wait.
        await reader.wait_for_selector('#events li[data-seq="15"]', state="attached")
        assert await reader.locator('#events li[data-seq="15"]').count() == 1
        hidden_faces = await reader.locator("#dice tbody td", has_text="hidden").count()
        assert hidden_faces == 0
        await reader.close()
        await page.close()


async def test_a_decision_explanation_with_candidates_at_phone_width(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("downtown", DOWNTOWN, client_entropy="waived")
        await client.send(created.game_id, {"type": "DeployGroundUnits"})
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        await open_with_credential(page, port, created.player_credential)
        decision = page.locator("#events li:has(details.why li.rejected)").first
        await decision.wait_for(timeout=TIMEOUT)
        await decision.locator("details.why summary").click()
        text = await decision.locator("details.why").inner_text()
        assert "Rule: Downtown solo rules " in text  # the rulebook's name for the seed file
        assert "✓ chosen:" in text and "✗ rejected:" in text
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"the page is {overflow}px wider than a phone screen"
        await decision.scroll_into_view_if_needed()
        await page.screenshot(path=str(artifacts / "05-explanation-phone.png"))
        await page.close()


async def test_a_credential_that_may_not_see_the_game_is_refused_clearly(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    page = await browser.new_page(viewport={"width": 800, "height": 600})
    await open_with_credential(page, viewer_gateway.port, "gnosuchgame.not-a-real-token")
    await wait_for(
        page, "document.querySelector('#status').textContent.startsWith('error')", timeout=TIMEOUT
    )
    status = await page.inner_text("#status")
    assert "unauthorized" in status
    assert await page.locator("#panes").is_hidden()
    await page.screenshot(path=str(artifacts / "06-refused-credential.png"))
    await page.close()


async def test_a_ruleset_with_a_map_shows_its_counters_on_hexes(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("conflict_of_heroes", {}, client_entropy="waived")
        view = await client.view(created.game_id)
        units = {  # on the map: a reinforcement waits out of play at its set-up hex
            u["id"]: u["hex"]
            for u in view.state["units"]
            if u.get("hex") and u.get("in_play", True)
        }
        page = await browser.new_page(viewport={"width": 1280, "height": 1000})
        await open_with_credential(page, port, created.player_credential)
        await page.wait_for_selector("#state svg.hexmap", timeout=TIMEOUT)
        label = await page.get_attribute("#state svg.hexmap", "aria-label")
        assert label is not None
        for unit, where in list(units.items())[:5]:
            assert f"{unit} in {where}" in label
        occupied = await page.locator("#state svg.hexmap polygon.occupied").count()
        assert occupied >= len(set(units.values())) >= 2  # units, and terrain with a hex
        await page.screenshot(path=str(artifacts / "07-hex-map.png"))
        await page.close()


async def test_a_page_opened_late_scrubs_to_the_exact_earlier_state(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    """The page never saw seq 3 live: it asks the server (view at_seq) for that state."""
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, client_entropy="waived")
        await client.send(created.game_id, {"type": "Add", "amount": 2})  # seqs 2-3
        await client.send(created.game_id, {"type": "Add", "amount": 5})  # seqs 4-5
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.spectator_credential)
        await page.wait_for_selector('#events li[data-seq="5"]', timeout=TIMEOUT)
        await _state_seq(page, 5)
        assert await _track(page, "total") == "7"
        await page.click('#events li[data-seq="3"] button.seq')
        await _state_seq(page, 3)
        assert "State at seq 3." in await page.inner_text("#state-label")
        assert await _track(page, "total") == "2"
        await page.screenshot(path=str(artifacts / "08-late-scrub.png"), full_page=True)
        await page.close()


async def test_the_viewer_shows_whose_dice_and_the_opponent_dice_setting(
    browser: Any, viewer_gateway: Running
) -> None:
    """Issue #16 item 6: a game created to take the player's dice for the opponent's rolls
    says so in its first event, and each roll says whose it is."""
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, opponent_manual_dice=True)
        await client.send(created.game_id, {"type": "Push"}, dice=[[4]])
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await open_with_credential(page, port, created.player_credential)
        # seq 2 binds the client's seed, seq 3 records the command, seq 4 is its roll.
        await page.wait_for_selector('#events li[data-seq="5"]', timeout=TIMEOUT)
        first = await page.inner_text('#events li[data-seq="1"]')
        assert "player may enter the opponent's dice" in first
        roll = await page.inner_text('#events li[data-seq="4"]')
        assert "(player) for bot push · the opponent's roll" in roll
        await page.close()
