"""The published ruleset schemas (docs/schemas/) and the browser client's TypeScript
declarations (clients/web/umpire.d.ts) match the code that generates them."""

from __future__ import annotations

import json

import pytest

from umpire.engine import registry
from umpire.server.publish_schemas import SCHEMAS, TYPINGS, documents, rendered


def test_checked_in_files_are_current() -> None:
    for path, text in rendered().items():
        assert path.exists() and path.read_text() == text, (
            f"{path.name} is stale: run `python -m umpire.server.publish_schemas`"
        )


@pytest.mark.parametrize("name", registry.shipped())
def test_each_ruleset_publishes_its_setup_and_every_command(name: str) -> None:
    ruleset = registry.get(name)
    document = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    tags = {str(t.__struct_config__.tag) for t in ruleset.command_types}
    assert tags | {"RollDice", "EndGame", "TakeBack"} == set(document["commands"])
    assert "properties" in document["setup"]


def test_the_declarations_name_every_message_and_command() -> None:
    text = TYPINGS.read_text()
    for name in ("Create", "SendCommand", "ViewState", "Action", "ClientMessage", "ServerMessage"):
        assert f" {name} " in text
    for document in documents():
        for tag in document["commands"]:
            assert f"export interface {tag} " in text
    assert text.count("{") == text.count("}")
    assert "export namespace Nightfighter {" in text and "export type Command = " in text
