"""A dispute's finding reads in words on the terminal (`umpire log`, `umpire dispute`,
`umpire disputes`), as the table says it: the events where the two lines part by their
types and what they say, not their JSON, even where the finding cut that JSON short
(engine/disputes.py keeps 500 characters of each), and each change at the head as
"path: before -> after"."""

from __future__ import annotations

import json

import msgspec

from tests.support.finding_texts import AI_MOVED, CUT, MOVE
from umpire.clients.cli import describe_frame
from umpire.events.rules_words import event_said, finding_lines
from umpire.events.types import DisputeFound, HeadChange
from umpire.events.wire import EventFrame
from umpire.server.render import describe


def test_an_event_is_said_by_its_type_and_explanation() -> None:
    whole = json.dumps(MOVE, separators=(",", ":"))
    assert event_said(whole) == "Bot moved: the bot climbs towards P2"
    sam = '{"type":"downtown.SamReacted","explanation":"the SAM fires at_will"}'
    assert event_said(sam, {"SAM"}) == "SAM reacted: the SAM fires at will"
    assert event_said('{"type":"DiceRolled","purpose":"to_hit","faces":[3]}') == (
        "Dice rolled: purpose: to hit, faces: [3]"
    )


def test_an_event_cut_short_is_said_by_what_it_chose() -> None:
    assert "explanation" not in CUT  # the case: the JSON ends before what it says
    assert event_said(CUT) == (
        "Bot moved: chose P2 (nearest player aircraft at 18d; destination L4)"
    )
    with_words = CUT[:60] + '"explanation":"goes in_the_air","candidates":[{"option'
    assert event_said(with_words).endswith(": goes in the air")
    assert event_said('{"type":"x.Y","rule":"r","cand').startswith("Y (its text is cut short")
    # Cut before anything is chosen: the event's own fields that come whole before the cut.
    assert event_said(AI_MOVED, {"AI"}) == (
        "AI moved: unit: AI-RIFLE-2, from hex: 1007, to hex: 0907, facing: 4, ap cost: 1, "
        "low risk: no, target: CM-1"  # a yes or no in words, as the table says it
    )
    for text in ("(nothing)", "", "not json {", '{"no":"type"}'):
        assert event_said(text) == text


def test_a_findings_log_row_and_dispute_lines_read_in_words() -> None:
    # Fails on the previous commit: the row was the finding's fields with the events' JSON
    # ('as played: {"type":"age_of_dogfights.BotMoved",...').
    found = DisputeFound(
        dispute=82, same=True, parts_at=70, as_played=CUT,
        under_reading=CUT.replace("destination L4", "destination L5"),
        head=(HeadChange(path="setup.approach_altitude_reading", before=None, after="towards"),),
    )  # fmt: skip
    row = describe(found, with_type=False)
    assert row == (
        "finding on dispute 82: the same; under that reading the game goes otherwise from seq 70; "
        "as played: Bot moved: "
        "chose P2 (nearest player aircraft at 18d; destination L4); under the reading: Bot "
        "moved: chose P2 (nearest player aircraft at 18d; destination L5); at the head, "
        "setup.approach altitude reading: none -> towards"
    )
    assert '{"' not in row
    never = DisputeFound(dispute=9, same=True, head=(HeadChange(path="setup.pace",
                         before="run_on", after="every_phase"),))  # fmt: skip
    assert finding_lines(never) == [
        "finding on dispute 9: the same; under that reading every event up to now comes out as "
        "played",
        "at the head, setup.pace: run on -> every phase",
    ]


def test_watch_says_a_finding_as_log_does() -> None:
    # `umpire watch` and `play` (clients/cli.py) print a pushed finding by the same words.
    found = DisputeFound(
        dispute=82, same=False, parts_at=70, as_played=CUT, under_reading="(nothing)"
    )
    frame = EventFrame(
        game_id="g1", seq=83, event_type="DisputeFound", version=1,
        payload=msgspec.to_builtins(found), command_id="umpire:finding:82", recorded_at="",
        prev_hash="", hash="",
    )  # fmt: skip
    said = describe_frame(frame, ())
    assert said == "; ".join(finding_lines(found)) and '{"' not in said
    assert "as played: Bot moved: chose P2" in said and "under the reading: (nothing)" in said
