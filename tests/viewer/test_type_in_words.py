"""The table names event types in words, as the terminal does (events/rules_words.py
`type_in_words`): "downtown.SamSetUp" reads "SAM set up", a ruleset's capitals taken from
its /rulesets.json entry (`acronyms`), the exact type kept in the row's title and
data-type. A real Chromium page runs clients/web/citations.js's `typeInWords` and
`acronyms` on the cases of tests/data/type_words.json (which tests/events/test_rules_words.py
runs through the terminal's rule) and on the gateway's own /rulesets.json, and a Downtown
game created from the pickers shows its rows and its decisions so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.finding_texts import AI_MOVED, CUT
from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.engine import registry
from umpire.events.rules_words import acronyms, event_said, type_in_words
from umpire.server.app import Running

TYPES = json.loads((Path(__file__).parents[1] / "data" / "type_words.json").read_text("utf-8"))


async def test_the_table_and_the_terminal_say_the_same_types(table_page: Any) -> None:
    """Every shared case comes out of citations.js as tests/data/type_words.json lists it."""
    page = table_page
    said = await page.evaluate(
        """async ({ cases, entries, kinds }) => {
            const { acronyms, kindInWords, typeInWords } = await import("/citations.js");
            return {
                types: cases.map(([type, capitals]) => typeInWords(type, capitals)),
                kinds: kinds.map(([type, payload, caps]) => kindInWords(type, payload, caps)),
                capitals: entries.map(([entry]) => [...acronyms(entry)].sort()),
            };
        }""",
        {"cases": TYPES["cases"], "entries": TYPES["acronyms"], "kinds": TYPES["kinds"]},
    )
    assert said["types"] == [shown for _, _, shown in TYPES["cases"]]
    assert said["kinds"] == [shown for *_, shown in TYPES["kinds"]]
    assert said["capitals"] == [capitals for _, capitals in TYPES["acronyms"]]


async def test_each_listed_rulesets_capitals_are_the_terminals(table_page: Any) -> None:
    """The page reads a ruleset's capitals from its /rulesets.json entry as the terminal
    reads them from the ruleset (server/render.py capitals_of): Downtown's AAA, DRV, SAM."""
    page = table_page
    read = await page.evaluate(
        """async () => {
            const { acronyms } = await import("/citations.js");
            const listing = await (await fetch("/rulesets.json")).json();
            return Object.fromEntries(listing.map((e) => [e.name, [...acronyms(e)].sort()]));
        }"""
    )
    terminal = {
        r.name: sorted(acronyms(r.title, r.labels.fields, r.labels.values))
        for r in registry.usable()[0]
    }
    assert read == terminal
    assert {"AAA", "DRV", "SAM", "US"} <= set(read["downtown"])


async def test_a_games_rows_and_decisions_name_their_types_in_words(
    browser: Any, viewer_gateway: Running
) -> None:
    """Downtown's ground deployment: the log's rows read "SAM set up" and "AAA placed"
    (the ruleset's capitals), "Phase began", "Command recorded"; the exact type is each
    row's title and data-type; the opponent's decisions are headed by the same words."""
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await create_game(
        page, viewer_gateway.port, "downtown", registry.get("downtown").default_scenario
    )
    assert (await send(page, "DeployGroundUnits"))["ok"]
    row = page.locator('#events li[data-type="downtown.SamSetUp"]').first
    await row.wait_for(timeout=TIMEOUT)
    kinds = await page.evaluate(
        """[...document.querySelectorAll("#events li[data-type] > .kind")]
            .map((k) => [k.closest("li").dataset.type, k.title, k.textContent])"""
    )
    shown = {t: text for t, _, text in kinds}
    assert all(title == t for t, title, _ in kinds), kinds
    assert shown["downtown.SamSetUp"] == "SAM set up", kinds
    assert shown["downtown.AaaPlaced"] == "AAA placed", kinds
    assert shown["downtown.PhaseBegan"] == "Phase began", kinds
    assert shown["CommandRecorded"] == "Command recorded", kinds
    assert shown["GameCreated"] == "Game created", kinds
    # Every row as the terminal says its type (the game's own types without the
    # ruleset's capitals, as `umpire watch` says them).
    downtown = registry.get("downtown")
    capitals = acronyms(downtown.title, downtown.labels.fields, downtown.labels.values)
    said = {t: type_in_words(t, capitals if "." in t else ()) for t, _, _ in kinds}
    assert shown == said
    heads = await page.locator("#decisions ol.decisions > li > strong").evaluate_all(
        "(heads) => heads.map((h) => [h.title, h.textContent])"
    )
    assert heads, "the deployment's decisions are on the table"
    for title, head in heads:
        assert title.startswith("downtown.") and head.endswith(f" {said[title]}"), heads
    await page.close()


FINDING = """async (capitals) => {
    const { findingView } = await import("/disputes.js");
    const { eventRow } = await import("/render.js");
    const event = { type: "downtown.SamReacted", rule: "000_842c81c5c58bc2f6.txt 3.2.1",
        explanation: "the SAM site fires: the MiGs are in_the_air" };
    const finding = { dispute: 9, same: false, parts_at: 7,
        as_played: JSON.stringify(event), under_reading: "(refused)", stopped: "",
        head: [{ path: "sam_sites.S1.fire_mode", before: "ready", after: "spent" }] };
    const box = findingView(finding, capitals);
    const row = eventRow({ seq: 10, event_type: "DisputeFound", payload: finding },
        new Map(), () => {}, capitals);
    document.body.append(box, row);
    return { text: box.innerText, title: box.querySelector("td").title, row: row.innerText };
}"""


async def test_a_findings_events_read_in_words(table_page: Any) -> None:
    """The dispute panel's finding, and the log's row of the finding (DisputeFound), say
    the event where the lines part as the log's row says it (its type in words and its
    explanation; the JSON in the panel cell's tooltip) and the head's changes by their
    paths in words."""
    page = table_page
    shown = await page.evaluate(FINDING, ["SAM", "AAA"])
    assert "SAM reacted: the SAM site fires: the MiGs are in the air" in shown["text"]
    assert "(refused)" in shown["text"]
    assert "sam sites.S1.fire mode" in shown["text"], shown["text"]
    assert json.loads(shown["title"])["type"] == "downtown.SamReacted"
    row = shown["row"]
    assert "Dispute found" in row and (
        "dispute 9: different; under that reading the game goes otherwise from seq 7" in row
    ), row
    assert "as played SAM reacted: the SAM site fires: the MiGs are in the air" in row, row
    assert "under the reading (refused)" in row and "sam sites.S1.fire mode" in row, row
    assert '"type"' not in row, row


async def test_a_findings_event_cut_short_reads_as_the_terminal_says_it(table_page: Any) -> None:
    """A finding keeps 500 characters of each event's JSON: a long decision's ends before
    its explanation. The table says it by what it chose, word for word as the terminal
    (events/rules_words.py `event_said`), where it showed the cut JSON."""
    cut = [
        CUT,
        CUT[:60] + '"explanation":"goes in_the_air","candidates":[{"option',
        "(nothing)",
        AI_MOVED,
        '{"type":"x.Y","rule":"r","cand',
    ]
    page = table_page
    said = await page.evaluate(
        """async (texts) => {
            const { eventSaid } = await import("/render.js");
            return texts.map((text) => eventSaid(text, ["AI"]));
        }""",
        cut,
    )
    assert said == [event_said(text, ["AI"]) for text in cut]
    assert said[0] == "Bot moved: chose P2 (nearest player aircraft at 18d; destination L4)"
    assert said[3].startswith("AI moved: unit: AI-RIFLE-2, from hex: 1007, to hex: 0907")
