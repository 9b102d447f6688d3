"""docs/rulesets.md's Ruleset table is engine/ruleset.py's fields, in their order."""

from __future__ import annotations

import dataclasses

from tests.support.doc_text import read, section, table_rows, ticked
from umpire.engine.ruleset import Ruleset


def test_the_ruleset_table_is_every_field_in_its_order() -> None:
    body = section(read("rulesets.md"), "The Ruleset")
    table = body[: body.index("\n\n", body.index("| field |"))]
    said = [
        name
        for row in table_rows(table)
        if row[0] != "field" and "read-only" not in row[1]  # a property, not a field
        for name in ticked(row[0])
    ]
    assert said == [field.name for field in dataclasses.fields(Ruleset)]
