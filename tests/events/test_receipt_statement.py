"""The bytes a receipt signature covers (docs/audit.md 8.4): canonical JSON, keys sorted,
no whitespace, ASCII only, as `json.dumps(..., sort_keys=True, separators=(",", ":"))`
writes them, whatever encoder builds them."""

from __future__ import annotations

import json

import pytest

from umpire.events.receipt_signature import SIGNATURE_DOMAIN, Statement


def _specified(statement: Statement) -> bytes:
    """The statement's bytes as docs/audit.md 8.4 specifies them, by the standard library."""
    body = {"domain": SIGNATURE_DOMAIN}
    body.update({f: getattr(statement, f) for f in statement.__struct_fields__})
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode("ascii")


def _statement(text: str) -> Statement:
    return Statement(
        game_id="g" + text, key_id="0123456789abcdef", reply="accepted", role=text,
        first_seq=7, head_seq=2**40, head_hash="ab" * 32, state_hash="cd" * 32 + text,
    )  # fmt: skip


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_is_written_as_specified(code: int) -> None:
    statement = _statement(f"x{chr(code)}y")
    assert statement.signed_bytes() == _specified(statement)


@pytest.mark.parametrize("text", ["é", "\u2028", "\U0001f3b2", "\ud800"])
def test_other_characters_are_escaped_as_specified(text: str) -> None:
    statement = _statement(text)
    signed = statement.signed_bytes()
    assert signed == _specified(statement)
    assert signed.isascii()
