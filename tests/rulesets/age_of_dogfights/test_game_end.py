"""001_989a2f850da69b66.txt states no end or victory condition (Game Setup: "the desired
scenario"; General Rules: a retreating bot flies on "until it leaves the Combat Zone").
The game ends when one side has no aircraft left in the Combat Zone, and GameEnded says
so in words: which side is out, how every aircraft left (shot down, withdrawn off its
edge and why, lost), the bots' tasks performed, and that victory is the scenario's
(README ledger, "game end")."""

from __future__ import annotations

import msgspec

from tests.rulesets.age_of_dogfights.setups import arrange, combat_state, decide, of_type
from umpire.engine.rulesets.age_of_dogfights.commands import FlyBots, ReportAircraft
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.events.types import GameEnded, Winner

PLAYERS = {"P1": ("se5a", (2, 2), "E", 3), "P2": ("se5a", (2, 10), "E", 3)}
BOTS = {"B1": ("albatros_dv", (15, 6), "E", 3), "B2": ("fokker_dr1", (12, 4), "W", 3)}


def test_the_last_bot_withdrawing_ends_the_game_and_says_each_fate() -> None:
    """B2 shot down earlier, P2 lost; B1 retreats (no ammunition) from (15, 6) heading E
    to its own east edge: its throttle die [1] gives the green die, it exits, and no bot
    is left in the Combat Zone."""
    s = combat_state(PLAYERS, BOTS)
    s = arrange(s, "B1", retreating=True, retreat_reason="all ammunition used")
    s = arrange(arrange(s, "B2", out="lost"), "P2", out="lost")
    s = msgspec.structs.replace(s, bombed=("Z1",))
    s, events = decide(s, FlyBots(), [[1]])
    (ended,) = of_type(events, GameEnded)
    assert ended.rule == "001_989a2f850da69b66.txt General Rules"
    assert ended.winner is Winner.NONE_STATED  # said, never guessed: the seed names none
    assert ended.result == (
        "The bots are out of the fight: no bot aircraft is left in the Combat Zone. "
        "Bots: B1 withdrew off its edge (all ammunition used); B2 shot down. "
        "Player aircraft: P1 still in the Combat Zone; P2 lost (shot down or off the "
        "board). Bot missions: bombed Z1. The solo rules state no victory condition: who "
        "won is the scenario's to judge."
    )


def test_the_last_player_aircraft_lost_ends_the_game_with_the_bots_left() -> None:
    s = arrange(combat_state(PLAYERS, BOTS), "P2", out="lost")
    report = ReportAircraft(aircraft="P1", position=(2, 2), heading=Heading.E, level=3, lost=True)
    s, events = decide(s, report, [])
    (ended,) = of_type(events, GameEnded)
    assert ended.result.startswith(
        "The player's side is out of the fight: no player aircraft is left in the Combat "
        "Zone. Bots: B1, B2 still in the Combat Zone. Player aircraft: P1 lost (shot down "
        "or off the board); P2 lost (shot down or off the board). The solo rules state no "
        "victory condition"
    ), ended.result
