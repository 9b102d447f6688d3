"""The forms the table generates from a legal action's JSON Schema (clients/web/forms.js),
in the browser: each kind of field becomes its control with its default, and reading the
form gives the command the schema describes (an anyOf gives the chosen case's fields)."""

from __future__ import annotations

from typing import Any

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


async def test_a_schema_becomes_a_form_and_the_form_a_command(
    browser: Any, viewer_gateway: Running
) -> None:
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/")
    assert await page.evaluate(BUILD, SCHEMA) > 0
    read = "() => window.probe.read()"
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
    await probe.locator('select[data-field="unit"]').select_option(label="B")
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
    assert error == "cards: choose at most 2"
    # The second case: its own fields; an optional (nullable) enum left unset is left out.
    await page.select_option('#probe select[data-field="variant"]', index=1)
    assert await page.evaluate(read) == {"type": "Act", "unit": "C"}
    second = page.locator("#probe .variant:not([hidden])")
    await second.locator('select[data-field="target"]').select_option(label="Y")
    assert await page.evaluate(read) == {"type": "Act", "unit": "C", "target": "Y"}
    await page.close()
