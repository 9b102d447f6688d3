"""The forms the table generates from a legal action's JSON Schema (clients/web/forms.js),
in the browser: each kind of field becomes its control with its default, and reading the
form gives the command the schema describes (an anyOf gives the chosen case's fields); a
list of records is rows to add and remove, a position its places, a hex field is filled
from the map ("umpire:hex") and asks the map to highlight what it allows
("umpire:highlight"); no field is JSON to type."""

from __future__ import annotations

import json
from typing import Any

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine.schemas import accepts
from umpire.server.app import Running

SCHEMA = {
    "anyOf": [
        {
            "type": "object",
            "properties": {
                "type": {"const": "Act"},
                "unit": {"type": "string", "enum": ["A", "B"]},
                "ap": {"type": "integer", "minimum": 1, "maximum": 7, "default": 2},
                "bold": {"type": "boolean", "default": True},
                "cards": {"type": "array", "items": {"type": "integer", "enum": [3, 5, 8]},
                          "maxItems": 2, "default": [5]},
                "note": {"type": "string", "maxLength": 20},
            },
            "required": ["type", "unit"],
        },
        {
            "type": "object",
            "properties": {
                "type": {"const": "Act"},
                "unit": {"type": "string", "enum": ["C"]},
                "target": {"anyOf": [{"type": "null"}, {"type": "string", "enum": ["X", "Y"]}]},
            },
            "required": ["type", "unit"],
        },
    ]
}  # fmt: skip

BUILD = """async (schema) => {
    const { commandFields } = await import('/forms.js');
    const built = commandFields(schema);
    const form = document.createElement('form');
    form.id = 'probe';
    form.append(built.node);
    document.body.append(form);
    window.probe = built;
    return form.querySelectorAll('select, input').length;
}"""


async def test_a_schema_becomes_a_form_and_the_form_a_command(table_page: Any) -> None:
    page = table_page
    assert await page.evaluate(BUILD, SCHEMA) > 0
    read = "() => window.probe.read()"
    # The command's type is the action's own, said by its box: sent, never a field to read
    # ("Type: MoveBombers" in code, where a wargamer reads the form).
    assert await page.locator('#probe [data-field="type"]').count() == 0
    assert "Type" not in await page.inner_text("#probe")
    # The first case (its `type` a constant), with its defaults: ap 2, bold, cards [5];
    # the unit drop-down's first value; the optional note left out.
    assert await page.evaluate(read) == {
        "type": "Act",
        "unit": "A",
        "ap": 2,
        "bold": True,
        "cards": [5],
    }
    probe = page.locator("#probe .variant:not([hidden])")
    await probe.locator('fieldset[data-field="unit"] label.choice', has_text="B").click()  # a radio
    await probe.locator('input[data-field="ap"]').fill("7")
    assert await probe.locator('input[data-field="ap"]').get_attribute("max") == "7"
    await probe.locator('input[data-field="bold"]').uncheck()
    await probe.locator("label.choice", has_text="8").locator("input").check()
    await probe.locator('input[data-field="note"]').fill("hi")
    assert await page.evaluate(read) == {
        "type": "Act", "unit": "B", "ap": 7, "bold": False, "cards": [5, 8], "note": "hi"
    }  # fmt: skip
    # Too many cards: the page says which field and what it allows.
    await probe.locator("label.choice", has_text="3").locator("input").check()
    error = await page.evaluate(
        "() => { try { window.probe.read(); } catch (e) { return e.message; } }"
    )
    # The field as the form labels it ("Cards"), never its code name ("cards").
    assert error == "Cards: choose at most 2"
    # The second case: its own fields; an optional (nullable) enum left unset is left out.
    # Each case by what tells it apart, as its fields are labelled ("Unit: C").
    cases = await page.locator('#probe select[data-field="variant"] option').all_inner_texts()
    assert cases == ["Unit: A/B, Cards: 3/5/8", "Unit: C"], cases
    await page.select_option('#probe select[data-field="variant"]', index=1)
    assert await page.evaluate(read) == {"type": "Act", "unit": "C"}
    second = page.locator("#probe .variant:not([hidden])")
    await second.locator('fieldset[data-field="target"] label.choice', has_text="Y").click()
    assert await page.evaluate(read) == {"type": "Act", "unit": "C", "target": "Y"}


LISTS = {
    "type": "object",
    "properties": {
        "type": {"const": "Report"},
        "flights": {"type": "array", "maxItems": 2, "items": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "minLength": 1},
                "hex": {"type": "string", "pattern": "^\\d{4}$", "description": "CCRR hex label",
                        "enum": ["0101", "0102", "0203"]},
                "facing": {"type": "integer", "minimum": 0, "maximum": 5, "default": 0},
                "altitude": {"title": "Altitude", "default": "medium",
                             "enum": ["deck", "low", "medium", "high", "very_high"]},
            },
            "required": ["id", "hex"],
        }},
        "position": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                     "prefixItems": [{"type": "integer", "minimum": 0, "maximum": 17},
                                     {"type": "integer", "minimum": 0, "maximum": 13}]},
        "path": {"type": "array", "items": {"type": "string", "pattern": "^\\d{4}$"},
                 "enum": [[], ["0101"], ["0101", "0102"]]},
        "cards": {"type": "array", "items": {"type": "integer", "minimum": 1}, "const": []},
    },
    "required": ["type", "flights", "position", "path"],
}  # fmt: skip

LIT = """() => { window.lit = []; document.addEventListener('umpire:highlight',
    (e) => window.lit.push(e.detail.hexes)); }"""
CLICK = "(hex) => document.dispatchEvent(new CustomEvent('umpire:hex', {detail: {hex}}))"


async def test_lists_positions_and_hexes_are_filled_without_json(table_page: Any) -> None:
    page = table_page
    await page.evaluate(BUILD, LISTS)
    await page.evaluate(LIT)
    assert await page.locator("#probe textarea").count() == 0  # nothing typed as JSON
    read = "() => window.probe.read()"
    flights = page.locator('#probe fieldset[data-field="flights"]')
    add = flights.locator("button.add-row")
    await add.click()
    await add.click()
    assert await add.is_disabled()  # maxItems 2
    rows = flights.locator("li.row")
    assert await rows.count() == 2
    await rows.nth(1).locator("button.remove-row").click()
    assert await rows.count() == 1 and not await add.is_disabled()
    row = rows.first
    await row.locator('input[data-field="id"]').fill("Buick")
    hex_field = row.locator('input[data-field="hex"]')
    await hex_field.focus()
    assert await page.evaluate("window.lit.at(-1)") == ["0101", "0102", "0203"]
    await page.evaluate(CLICK, "0999")  # not allowed: ignored
    assert await hex_field.input_value() == ""
    await page.evaluate(CLICK, "0203")
    assert await hex_field.input_value() == "0203"
    await row.locator(
        'fieldset[data-field="altitude"], select[data-field="altitude"]'
    ).first.wait_for()
    await row.locator('select[data-field="altitude"]').select_option(label="high")
    position = page.locator('#probe fieldset[data-field="position"] input')
    await position.nth(0).fill("4")
    await position.nth(1).fill("13")
    assert await position.nth(1).get_attribute("max") == "13"
    path = page.locator('#probe input[data-field="path"]')
    await path.focus()
    assert await page.evaluate("window.lit.at(-1)") == ["0101"]  # the first step of a path
    await page.evaluate(CLICK, "0101")
    assert await page.evaluate("window.lit.at(-1)") == ["0102"]  # then the next
    await page.evaluate(CLICK, "0102")
    assert await page.evaluate(read) == {
        "type": "Report",
        "flights": [{"id": "Buick", "hex": "0203", "facing": 0, "altitude": "high"}],
        "position": [4, 13],
        "path": ["0101", "0102"],
        "cards": [],
    }
    # A hex typed by hand that the schema does not allow: the field and what is allowed.
    await hex_field.fill("0999")
    error = await page.evaluate(
        "() => { try { window.probe.read(); } catch (e) { return e.message; } }"
    )
    assert error.startswith("Hex: 0999 is not one of the hexes allowed now"), error
    # A place of a position out of its bounds: said as its label says it ("Position:
    # column"), where the table wrote "position[0]".
    await hex_field.fill("0203")
    await position.nth(0).fill("99")
    error = await page.evaluate(
        "() => { try { window.probe.read(); } catch (e) { return e.message; } }"
    )
    shown = await page.locator('#probe fieldset[data-field="position"] label').first.inner_text()
    assert shown == "Position: column", shown
    assert error == "Position: column: 99 is outside 0 to 17", error


async def test_the_raw_json_editor_is_behind_a_toggle_and_sends_what_it_holds(
    browser: Any, viewer_gateway: Running
) -> None:
    """Power users: "Edit as JSON" shows the command the form would send, hides the
    fields, and sends what the box holds; unticked, the form is sent again."""
    port = viewer_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, client_seed="json")
    page = await browser.new_page()
    await open_with_credential(page, port, created.player_credential)
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    box = page.locator('details.action-box[data-action="Add"]')
    if await box.get_attribute("open") is None:
        await box.locator("summary").click()
    form = box.locator("form")
    raw = form.locator("textarea.raw-json")
    assert await raw.is_hidden()
    await form.locator('input[data-field="amount"]').fill("2")
    await form.locator('input[data-kind="raw-toggle"]').check()
    assert json.loads(await raw.input_value()) == {"type": "Add", "amount": 2}
    assert await form.locator('input[data-field="amount"]').is_hidden()
    await raw.fill('{"type": "Add", "amount": 3}')
    await form.locator("button[type=submit]").click()
    recorded = page.locator('#events li[data-type="CommandRecorded"]', has_text="amount 3")
    await recorded.wait_for(timeout=TIMEOUT)
    await page.close()


# A report whose schema leaves out the state as it is (a `not`, issue 41 item 8): the
# counter u1 in 0101 facing 2, in play (the default, so it may be left out).
RESTATED = {
    "type": "object",
    "properties": {
        "type": {"const": "Report"},
        "unit": {"type": "string", "enum": ["u1"]},
        "hex": {"type": "string", "enum": ["0101", "0102"]},
        "facing": {"type": "integer", "minimum": 0, "maximum": 5},
        "in_play": {"type": "boolean", "default": True},
    },
    "required": ["type", "unit", "hex", "facing"],
    "not": {"required": ["unit", "hex", "facing"], "properties": {
        "unit": {"const": "u1"}, "hex": {"const": "0101"}, "facing": {"const": 2},
        "in_play": {"const": True}}},
}  # fmt: skip


async def test_a_form_says_so_before_sending_what_its_schema_leaves_out(table_page: Any) -> None:
    """A `not` still makes a usable form (its fields as ever); reading it as the command
    the `not` names is an error that says why, any other reading is the command."""
    page = table_page
    await page.evaluate(BUILD, RESTATED)
    probe = page.locator("#probe")
    await probe.locator('input[data-field="hex"]').fill("0101")
    await probe.locator('input[data-field="facing"]').fill("2")
    error = await page.evaluate(
        "() => { try { window.probe.read(); } catch (e) { return e.message; } }"
    )
    assert error and "would change nothing" in error, error
    await probe.locator('input[data-field="in_play"]').uncheck()
    assert await page.evaluate("() => window.probe.read()") == {
        "type": "Report", "unit": "u1", "hex": "0101", "facing": 2, "in_play": False
    }  # fmt: skip
    await probe.locator('input[data-field="in_play"]').check()
    await probe.locator('input[data-field="facing"]').fill("3")
    assert (await page.evaluate("() => window.probe.read()"))["facing"] == 3


# Downtown's US side as it stands (engine/rulesets/downtown/actions.py `_us_restated`):
# no one command says it, the same flights in any order do.
US_RESTATED = {
    "properties": {
        "flights": {"minItems": 2, "maxItems": 2, "allOf": [
            {"contains": {"properties": {"id": {"const": "A"}, "hex": {"const": "0101"}},
                          "required": ["id", "hex"]}},
            {"contains": {"properties": {"id": {"const": "B"}, "hex": {"const": "0202"}},
                          "required": ["id", "hex"]}},
        ]},
        "preemptive_arms": {"const": 0},
    },
    "required": ["flights"],
}  # fmt: skip
A, B = {"id": "A", "hex": "0101"}, {"id": "B", "hex": "0202"}
US_REPORTS = [
    {"flights": [A, B]},
    {"flights": [B, A]},
    {"flights": [A, B], "preemptive_arms": 0},
    {"flights": [A, B], "preemptive_arms": 1},
    {"flights": [A, {"id": "B", "hex": "0203"}]},
    {"flights": [A]},
    {"flights": [A, B, {"id": "C", "hex": "0303"}]},
    {"flights": [A, A]},
]


async def test_the_table_reads_a_not_as_the_server_does(table_page: Any) -> None:
    """The forms' `accepts` (clients/web/accepts.js) agrees with the engine's on a `not` no
    one command says: the same flights in any order restate the US side (the form says it
    would change nothing), one flight moved or one more does not (it is sent)."""
    page = table_page
    in_page = await page.evaluate(
        """async ([schema, values]) => {
            const { accepts } = await import('/accepts.js');
            return values.map((v) => accepts(schema, v));
        }""",
        [US_RESTATED, US_REPORTS],
    )
    assert in_page == [accepts(US_RESTATED, v) for v in US_REPORTS]
    assert in_page == [True, True, True, False, False, False, False, False]


# Nightfighter's MoveBombers before any bomber is on the map (its actions narrow the list
# of counters to accelerate to none).
NO_ITEM = {
    "type": "object",
    "properties": {
        "type": {"const": "MoveBombers"},
        "accelerate": {"type": "array", "items": {"type": "string"}, "maxItems": 0, "default": []},
    },
    "required": ["type"],
}


async def test_a_list_that_takes_no_item_now_is_said_not_asked(table_page: Any) -> None:
    """A list the rules narrow to no item was drawn as rows to add under "at most 0",
    with an "+ Add" button whose row the server would refuse."""
    page = table_page
    await page.wait_for_selector("#ruleset option", state="attached", timeout=TIMEOUT)
    await page.evaluate(BUILD, NO_ITEM)
    form = page.locator("#probe")
    assert await form.locator("[data-kind='add']").count() == 0
    said = " ".join((await form.inner_text()).split())
    assert "Accelerate: none allowed now" in said and "at most 0" not in said, said
    read = await page.evaluate("window.probe.read()")
    assert read == {"type": "MoveBombers", "accelerate": []}, read


# Nightfighter's MoveBombers with counters on the map: its schema bounds the list at 200,
# however few counters may accelerate.
SOME_ITEMS = {
    "type": "object",
    "properties": {
        "type": {"const": "MoveBombers"},
        "accelerate": {"type": "array", "items": {"type": "string", "enum": ["B1-1", "B1-2"]},
                       "maxItems": 200, "default": []},
    },
    "required": ["type"],
}  # fmt: skip


async def test_a_bound_no_choice_can_reach_is_left_unsaid(table_page: Any) -> None:
    """The form said "Accelerate (optional): at most 200" over nine check boxes."""
    page = table_page
    await page.wait_for_selector("#ruleset option", state="attached", timeout=TIMEOUT)
    await page.evaluate(BUILD, SOME_ITEMS)
    legend = await page.locator('#probe fieldset[data-field="accelerate"] legend').inner_text()
    assert legend == "Accelerate (optional)", legend
