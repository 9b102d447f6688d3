"""docs/protocol.md against events/wire.py and the code's errors: every message type and
field, each reply's fields, the event and error frames, the error codes a client can meet
and the close codes."""

from __future__ import annotations

import re

import msgspec

from tests.support.doc_text import read, section, table_rows, ticked, unbracketed
from tests.support.project_modules import REPO
from umpire.events import wire


def messages(union: object) -> dict[str, type[msgspec.Struct]]:
    return {str(kind.__struct_config__.tag): kind for kind in union.__args__}  # type: ignore[attr-defined]


CLIENT = messages(wire.ClientMessage)
SERVER = messages(wire.ServerMessage)


def client_table() -> dict[str, list[str]]:
    body = section(read("protocol.md"), "Client → server")
    rows = {ticked(row[0])[0]: row for row in table_rows(body) if ticked(row[0])}
    return rows


def test_the_client_messages_are_events_wires_with_their_fields() -> None:
    rows = client_table()
    assert sorted(rows) == sorted(CLIENT), "docs/protocol.md's client table and the wire differ"
    for tag, (_, fields, _) in rows.items():
        documented = set(ticked(unbracketed(fields)))
        wanted = set(CLIENT[tag].__struct_fields__) - {"type", "id"}
        assert wanted <= documented, f"`{tag}`: the table leaves out {sorted(wanted - documented)}"
        assert documented <= wanted, (
            f"`{tag}`: the table names fields it does not take: {sorted(documented - wanted)}"
        )


def test_each_reply_names_every_field_of_its_message() -> None:
    for tag, (_, _, reply) in client_table().items():
        kind = ticked(reply)[0]
        assert kind in SERVER, f"`{tag}` is answered with `{kind}`, which is no server message"
        fields = set(SERVER[kind].__struct_fields__) - {"type", "id"}
        if kind == "games":  # each game's fields, in braces
            fields = set(wire.GameSummary.__struct_fields__)
        missing = sorted(name for name in fields if not re.search(rf"\b{name}\b", reply))
        assert not missing, f"`{tag}`'s reply `{kind}` leaves out {missing}"


def test_the_event_and_error_frames_list_their_fields() -> None:
    body = section(read("protocol.md"), "Server → client")
    said = re.search(r"`event` frames: (.*?)\. ", body, re.S)
    assert said, "docs/protocol.md no longer lists the `event` frame's fields"
    listed = ticked(unbracketed(said.group(1)))
    assert listed == [f for f in wire.EventFrame.__struct_fields__ if f != "type"]
    said = re.search(r"`error` frames: (.*?)\. ", body, re.S)
    assert said, "docs/protocol.md no longer lists the `error` frame's fields"
    assert set(ticked(said.group(1))) == set(wire.Error.__struct_fields__)
    for kind in SERVER:  # named, or shown as a frame
        said = re.search(rf'`{kind}`|"type": ?"{kind}"', read("protocol.md"))
        assert said, f"docs/protocol.md never names `{kind}`"


# Codes the code raises that no client of the gateway meets, each with why.
NOT_ON_THE_WIRE = {
    # the command line and its files
    "backup_invalid": "umpire store restore",
    "data_dir": "umpire serve and the store commands: the data directory",
    "data_dir_in_use": "umpire store",
    "store_damaged": "umpire serve and umpire store",
    "store_start_failed": "umpire serve",
    "export_refused": "umpire export",
    "invalid_export": "umpire audit --file, import",
    "output_refused": "umpire export -o, proof -o",
    "replay_what": "umpire replay",
    "no_such_line": "umpire replay --line",
    "game_amended": "umpire readjudicate",
    "seal_refused": "umpire export --seal",
    "no_receipts": "umpire receipts, audit",
    "receipts_invalid": "a receipts file",
    "proof_invalid": "umpire proof --check",
    "unsafe_path": "a folder or file another user could plant",
    "nonce_key_invalid": "a client's nonce key file",
    # the audit
    "dice_mismatch": "the audit and replays: recorded dice that do not fit",
    "player_roll": "the audit: a player roll the rules do not allow",
    "grammar": "the audit: the batch grammar",
    # the engine's own, caught before an answer
    "needs_whole_log": "a fold from a cache asks for the whole log",
    "invalid_nonce": "the wire refuses a bad nonce first (`bad_message`)",
    # raised by the Python client itself
    "gateway_not_yours": "the Python client",
    "gateway_owner_unknown": "the Python client",
    "receipt_not_signed": "the Python client",
}


def codes_in_code() -> dict[str, set[str]]:
    """Every error code the project's code names, with the files that name it."""
    found: dict[str, set[str]] = {}
    pattern = re.compile(r'\bcode\s*(?::\s*str\s*)?=\s*"([a-z_]+)"|"code":\s*"([a-z_]+)"')
    for package in ("events", "engine", "server", "clients"):
        for path in (REPO / package).rglob("*.py"):
            for match in pattern.finditer(path.read_text()):
                code = match.group(1) or match.group(2)
                found.setdefault(code, set()).add(str(path.relative_to(REPO)))
    return found


def documented_codes() -> set[str]:
    body = section(read("protocol.md"), "Server → client").split("Codes:", 1)[1]
    return {code for row in table_rows(body) for code in ticked(row[0])} - {"code"}


def test_the_error_codes_are_the_codes_a_client_can_meet() -> None:
    found = codes_in_code()
    assert len(found) > 50, "the code's error codes were not found: the pattern is broken"
    documented = documented_codes()
    unknown = sorted(documented - set(found))
    assert not unknown, f"docs/protocol.md lists codes nothing raises: {unknown}"
    undocumented = {
        code: sorted(files)
        for code, files in found.items()
        if code not in documented and code not in NOT_ON_THE_WIRE
    }
    assert not undocumented, (
        f"codes missing from docs/protocol.md's table (or from NOT_ON_THE_WIRE here, with "
        f"why no client meets them): {undocumented}"
    )
    stale = sorted(set(NOT_ON_THE_WIRE) - set(found))
    assert not stale, f"NOT_ON_THE_WIRE names codes nothing raises: {stale}"


def close_codes(doc: str, heading: str) -> set[int]:
    return {int(row[0]) for row in table_rows(section(read(doc), heading)) if row[0].isdigit()}


def test_the_close_codes_are_the_wires() -> None:
    constants = {value for name, value in vars(wire).items() if name.startswith("CLOSE_")}
    assert close_codes("protocol.md", "Close codes") == constants
    # operations.md's list adds the normal close a client may also see
    assert close_codes("operations.md", "Limits and close codes") == constants | {1000}
