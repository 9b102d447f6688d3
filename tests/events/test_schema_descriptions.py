"""Published schema text does not depend on the installed msgspec's docstring handling."""

from __future__ import annotations

import msgspec

from umpire.events.schema_descriptions import cleaned_descriptions
from umpire.events.wire import json_schema


class _Indented(msgspec.Struct):
    """First line of the doc.
    second line, indented in the source as every docstring is.

        kept relative indent"""

    description: str = "a field named description"


def test_a_docstring_reads_cleaned_whatever_msgspec_gave() -> None:
    raw = "First line.\n    second line.\n\n        deeper"
    assert cleaned_descriptions({"description": raw}) == {
        "description": "First line.\nsecond line.\n\n    deeper"
    }
    schema = cleaned_descriptions(msgspec.json.schema(_Indented))
    (definition,) = schema["$defs"].values()
    assert definition["description"] == (
        "First line of the doc.\nsecond line, indented in the source as every docstring is."
        "\n\n    kept relative indent"
    )


def test_data_named_description_is_left_as_it_is() -> None:
    node = {
        "properties": {"description": {"type": "string", "default": {"description": "  x\n  y"}}},
        "const": {"description": "  a\n    b"},
    }
    assert cleaned_descriptions(node) == node


def test_the_wire_schema_has_no_docstring_indentation() -> None:
    def texts(node: object) -> list[str]:
        if isinstance(node, dict):
            own = [node["description"]] if isinstance(node.get("description"), str) else []
            return own + [t for v in node.values() for t in texts(v)]
        if isinstance(node, list):
            return [t for v in node for t in texts(v)]
        return []

    found = texts(json_schema())
    assert found and not [t for t in found if "\n    " in t]
