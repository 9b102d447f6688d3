"""Schema descriptions as the docstrings read, whichever msgspec wrote them.

msgspec takes a type's `description` from its docstring: up to 0.22 with the docstring's
indentation kept, from 0.23 cleaned as `inspect.cleandoc` cleans it. The published schemas
(docs/protocol.schema.json, docs/schemas/) are compared byte for byte with what the types
give, so the text is cleaned here once and no longer depends on the installed msgspec.
"""

from __future__ import annotations

import inspect
from typing import Any

# Keys whose values are data, not schemas: a `description` inside them is a value to keep.
_DATA_KEYS = frozenset({"default", "const", "enum", "examples"})


def cleaned_descriptions(node: Any) -> Any:
    """`node` with every schema's `description` cleaned of its docstring indentation."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                out[key] = inspect.cleandoc(value)
            elif key in _DATA_KEYS:
                out[key] = value
            else:
                out[key] = cleaned_descriptions(value)
        return out
    if isinstance(node, list):
        return [cleaned_descriptions(v) for v in node]
    return node
