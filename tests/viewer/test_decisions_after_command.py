"""What the rules did right after the player's command is said in the play panel ("The
opponent's latest decisions"); only an event that merely records the command (the
player's own report: Nightfighter's fighter move, Downtown's flight report) is left out.

The panel once left out the first event after every command, whatever it was: after
Nightfighter's EndPhase that hid the "Turn started" or "Phase began" that the rules say
next, after MoveBombers the first bomber's move, after Downtown's RunAdminPhase the phase
begun, after a Down in Flames ACE PILOT declaration the rules' voiding of it. An event
records the command when it gives a field of the command with its value (Stall's `unit`
as PlayerActed's `units`); a bomber the player named to accelerate is moved by the
rules. Checked on a Nightfighter game played through the page, and on the page's own
module (clients/web/play.js `opponentDecided`) with the pairs a played game logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.server.app import Running

NF = "004_c3eb2ad371d7bb6a.txt"
DIF = "002_c21c1b1d0b6ff92b.txt"
DT = "000_842c81c5c58bc2f6.txt"
# (the player's command, the first event after it, whether the panel lists that event),
# each pair as a played game logged it.
PAIRS: list[tuple[dict[str, Any], dict[str, Any], bool]] = [
    # Downtown's report of a AAA suppressed: the decision's `result` is the unit the player
    # named, the player's own base-game result, not a step of the rules ("The rules: AAA3:
    # suppressed (base-game result)" was listed among the opponent's decisions).
    (
        {"type": "ReportUnitStatus", "unit_id": "AAA3", "status": "suppressed"},
        {
            "event_type": "downtown.DecisionMade",
            "payload": {
                "rule": f"{DT} 2.1.7",
                "dice": [],
                "candidates": [],
                "topic": "aaa_suppressed",
                "result": "AAA3",
                "explanation": "AAA3: suppressed (base-game result)",
            },
        },
        False,
    ),
    (
        {"type": "EndPhase"},
        {
            "event_type": "nightfighter.TurnStarted",
            "payload": {
                "rule": f"{NF} EXAMPLE OF PLAY (sequence of play)",
                "dice": [],
                "explanation": "turn 2 begins; S5.5 exclusions are cleared",
                "turn": 2,
            },
        },
        True,
    ),
    (
        {"type": "EndPhase"},
        {
            "event_type": "nightfighter.PhaseBegan",
            "payload": {
                "rule": f"{NF} EXAMPLE OF PLAY (sequence of play)",
                "dice": [],
                "explanation": "Searchlight phase",
                "phase": "searchlight",
            },
        },
        True,
    ),
    (
        {"type": "MoveBombers", "accelerate": []},
        {
            "event_type": "nightfighter.CounterMoved",
            "payload": {
                "rule": f"{NF} S7.0",
                "dice": [],
                "explanation": "B3-1 flies 3 hexes to 0325",
                "counter": "B3-1",
                "from_hex": "0322",
                "to_hex": "0325",
                "hexes": 3,
            },
        },
        True,
    ),
    (
        {"type": "RunAdminPhase"},
        {
            "event_type": "downtown.PhaseBegan",
            "payload": {
                "rule": f"{DT} 2.1.5",
                "explanation": "turn 2: Admin phase",
                "phase": "admin",
                "turn": 2,
            },
        },
        True,
    ),
    (
        {"type": "DeclareAcePilot", "aircraft": "b1"},
        {
            "event_type": "down_in_flames.ClaimVoided",
            "payload": {
                "aircraft": "b1",
                "command": "DeclareAcePilot",
                "rule": f"{DIF} 9.1.8",
                "explanation": "b1 is not an Ace Leader",
            },
        },
        True,
    ),
    # The bomber the player named to accelerate: its move is the rules' (S7.0).
    (
        {"type": "MoveBombers", "accelerate": ["B1-1", "B1-3"]},
        {
            "event_type": "nightfighter.CounterMoved",
            "payload": {
                "rule": f"{NF} S7.0",
                "dice": [],
                "explanation": "B1-1 flies 4 hexes to 0407",
                "counter": "B1-1",
                "from_hex": "0403",
                "to_hex": "0407",
                "hexes": 4,
            },
        },
        True,
    ),
    # The player's own reports: nothing decided.
    (
        {
            "type": "MoveFighter",
            "fighter": "F1",
            "path": ["1620", "1720"],
            "facing": 5,
            "exit": False,
        },
        {
            "event_type": "nightfighter.FighterMoved",
            "payload": {
                "rule": f"{NF} S3.0",
                "dice": [],
                "explanation": "F1 moves 1620-1720, facing 5",
                "fighter": "F1",
                "path": ["1620", "1720"],
                "to_hex": "1720",
                "facing": 5,
            },
        },
        False,
    ),
    (
        {"type": "Stall", "unit": "P-RIFLE-2", "cards": []},
        {
            "event_type": "conflict_of_heroes.PlayerActed",
            "payload": {
                "kind": "stall",
                "units": ["P-RIFLE-2"],
                "ap": 1,
                "rule": "003_368c69a730e6e14a.txt 3.0 Stall",
                "dice": [],
                "explanation": "stall: P-RIFLE-2 spends 1 AP",
            },
        },
        False,
    ),
    # A command of no fields whose event records it by its name (Pass: PlayerActed of
    # kind "pass"): the player's own move, which the panel said as "The rules: the player
    # passes".
    (
        {"type": "Pass"},
        {
            "event_type": "conflict_of_heroes.PlayerActed",
            "payload": {
                "kind": "pass",
                "rule": "003_368c69a730e6e14a.txt 3.0 Pass",
                "dice": [],
                "explanation": "the player passes",
            },
        },
        False,
    ),
    (
        {"type": "Climb", "element": "B"},
        {
            "event_type": "down_in_flames.AltitudeChanged",
            "payload": {
                "element": "B",
                "from_level": 1,
                "to_level": 2,
                "rule": f"{DIF} 2.2",
                "explanation": "element B climbs 1 level",
            },
        },
        False,
    ),
]

LISTED = """async (pairs) => {
  const { opponentDecided } = await import('./play.js');
  return pairs.map(([command, frame]) => opponentDecided({ seq: 9, ...frame }, command));
}"""


async def test_the_rules_first_step_after_a_command_is_listed_not_a_record_of_it(
    table_page: Any,
) -> None:
    page = table_page
    listed = await page.evaluate(LISTED, [[c, f] for c, f, _ in PAIRS])
    wanted = [w for _, _, w in PAIRS]
    assert listed == wanted, [
        (c["type"], f["event_type"], got) for (c, f, _), got in zip(PAIRS, listed, strict=True)
    ]


async def test_a_turn_begun_after_end_phase_is_said_in_the_play_panel(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await create_game(page, viewer_gateway.port, "nightfighter", "")
    # A game opens at turn 1's Bomber Movement (v9): the bombers move, the fighter's
    # phase is ended, then the Radar Search phase's EndPhase runs the phases left
    # (nothing in them for the player to decide) and starts turn 2.
    assert (await send(page, "MoveBombers"))["ok"]
    assert (await send(page, "EndPhase"))["ok"]
    ended = await send(page, "EndPhase")
    assert ended["ok"], ended
    await wait_for(
        page, "document.querySelector('#decisions').innerText.includes('turn 2')", timeout=TIMEOUT
    )
    said = await page.inner_text("#decisions")
    # The rules' first step after the command is said, and the turn begun.
    assert "The rules: AI Radar phase" in said, said
    assert "The rules: turn 2 begins" in said, said
    assert "Turn started" in said and "None since your last command" not in said, said
    await page.screenshot(path=str(artifacts / "table-nightfighter-turn-begun.png"))
    await page.close()
