"""server/repeated_keys.py's fast path (a frame that msgspec decodes and encodes back to
the same bytes has no repeated key) must agree with the exact check on every text: a
property test over objects whose keys collide often, written compact or spaced, with
and without a key given twice at any depth."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from umpire.server.repeated_keys import repeated_key

KEYS = st.sampled_from(["a", "b", "type", "command", "é", 'q"', "\\"])
LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
PAIRS = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(st.tuples(KEYS, inner), max_size=4).map(lambda pairs: ("obj", pairs))
    ),
    max_leaves=12,
)


def render(value: Any, spaced: bool) -> str:
    """JSON text of `value`, where ("obj", pairs) is an object written pair by pair (so a
    key may stand twice)."""
    colon, comma = (": ", ", ") if spaced else (":", ",")
    if isinstance(value, tuple):
        body = comma.join(json.dumps(k) + colon + render(v, spaced) for k, v in value[1])
        return "{" + body + "}"
    if isinstance(value, list):
        return "[" + comma.join(render(v, spaced) for v in value) + "]"
    return json.dumps(value, separators=(comma, colon), ensure_ascii=spaced)


def first_repeat(text: str) -> str | None:
    """The reference: the standard library's pairs, the first key seen twice in one object."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen and not found:
                found.append(key)
            seen.add(key)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found[0] if found else None


@settings(max_examples=400, deadline=None)
@given(body=st.lists(st.tuples(KEYS, PAIRS), max_size=5), spaced=st.booleans())
def test_the_fast_path_finds_what_the_exact_check_finds(
    body: list[tuple[str, Any]], spaced: bool
) -> None:
    text = render(("obj", body), spaced)
    assert (repeated_key(text) is None) == (first_repeat(text) is None), text


def test_a_compact_frame_with_a_repeat_is_still_found() -> None:
    # Compact, as a client sends: the fast path must not take it for an object's bytes.
    frame = '{"type":"command","command":{"type":"Add","amount":1,"amount":5}}'
    assert repeated_key(frame) == "amount"
    assert repeated_key('{"type":"view","type":"command"}') == "type"
    assert repeated_key('{"type":"command","command":{"type":"Add","amount":1}}') is None
