"""A scripted raid on the synthetic map through `games` (a real Redis): every phase runs;
AAA, Fire Cans and SAMs appear, SAMs acquire and fire, MiG flights are generated, checked
and identified; the log audits OK and the player never sees a DRV secret before reveal."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.rulesets.downtown.setups import SETUP, manual_for, us_flights
from tests.support.gateway_games import create_bound
from umpire.engine.actions import legal_actions
from umpire.engine.audit import audit
from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import RULESET
from umpire.engine.rulesets.downtown import events as ev
from umpire.events.types import DiceRolled
from umpire.server.games import Games


class Raid:
    """The game under test, with a command counter."""

    def __init__(self, games: Games, gid: str) -> None:
        self.games, self.gid, self.n = games, gid, 0

    async def state(self) -> Any:
        return (await self.games.load(self.gid))[1].state

    async def send(
        self,
        command: dict[str, Any],
        choices: dict[str, tuple[int, ...]] | None = None,
        default: dict[int, int] | None = None,
    ) -> None:
        self.n += 1
        manual = None
        if choices is not None:
            manual = manual_for(await self.state(), command, choices, default)
        await self.games.handle(self.gid, f"c{self.n}", command, manual_dice=manual)

    async def end_movement(self, flight_id: str, *choices: Any) -> None:
        """4: the end-of-movement roll, sent while it is listed (issue 41 item 8: once it
        would change nothing it is not)."""
        state = await self.state()
        listed = legal_actions(RULESET, state, Role.PLAYER, ended=False)
        due = [
            a.schema["properties"]["flight_id"] for a in listed if a.type == "EndUsFlightMovement"
        ]
        if due and flight_id in due[0]["enum"]:
            await self.send({"type": "EndUsFlightMovement", "flight_id": flight_id}, *choices)


def _leaks(data: Any) -> list[str]:
    text = msgspec.json.encode(data).decode()
    return [name for name in RULESET.secret_fields if f'"{name}"' in text]


async def test_scripted_raid(games: Games) -> None:
    created = await create_bound(games, "downtown", SETUP, "raid", opponent_manual_dice=True)
    raid = Raid(games, created.game_id)
    # Pre-raid: ground units (server dice), radar, air deployment
    await raid.send({"type": "DeployGroundUnits"})
    await raid.send({"type": "CheckDrvRadar"})
    await raid.send(
        {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}, {}
    )
    state = await raid.state()
    assert len(state.drv) == 3 and state.phase == "detection"
    # Turn 1
    await raid.send(us_flights("1020", "1121", "1019"))
    await raid.send({"type": "RunDetectionPhase", "detected": [state.drv[0].id]}, {})
    await raid.send({"type": "RunSamAcquisitionPhase"}, {"SAM Activation Check": (1,)})
    state = await raid.state()
    warned = [s for s in state.sams if s.warning]
    assert len(warned) == 2 and all(s.radar_on for s in warned)
    hunting = [s for s in state.sams if s.target]
    assert hunting, "a SAM tries to acquire"
    from umpire.engine.rulesets.downtown.board import board_of

    board = board_of(state.setup.map)
    where = {f.id: f.hex for f in state.us}

    def rank(s: Any) -> tuple[bool, int, str]:
        d = board.dist(s.hex, where[s.target])
        return (not 2 <= d <= 8, d, s.id)

    sam = min(hunting, key=rank)
    await raid.send(
        {"type": "ReportAcquisition", "sam_id": sam.id, "flight_id": sam.target, "level": "full"}
    )
    await raid.send({"type": "DrvChitPicked", "value": 1}, {})
    target = next(f for f in state.us if f.id == sam.target)
    await raid.send(
        {
            "type": "MoveUsFlight",
            "flight_id": target.id,
            "hex": target.hex,
            "altitude": target.altitude.value,
            "facing": target.facing,
        }
    )
    await raid.send(
        {"type": "RollDrvAttack", "unit_id": sam.id, "flight_id": target.id, "kind": "sam_attack"},
        {"sam_attack": (3, 3), "Random Events": (7,)},
    )
    state = await raid.state()
    mig = next(f for f in state.drv if not f.ready)
    await raid.send({"type": "RunDrvMovement", "flights": 1}, {})
    state = await raid.state()
    if any(f.id == mig.id for f in state.drv):
        await raid.send({"type": "IdentifyVisually", "flight_id": mig.id}, {})
    await raid.send(
        {
            "type": "MoveUsFlight",
            "flight_id": "S1",
            "hex": "1621",
            "altitude": "medium",
            "facing": 2,
        }
    )
    await raid.end_movement("S1", {})
    await raid.send(
        {"type": "RunAdminPhase"}, {"hidden AAA activation": (1,), "Fire Can activation": (1,)}
    )
    # Turns 2 and 3 on server dice
    for turn, hexes in ((2, ("1321", "1422", "1220")), (3, ("1621", "1722", "1520"))):
        state = await raid.state()
        assert state.turn == turn and state.phase == "detection"
        await raid.send(us_flights(*hexes))
        await raid.send({"type": "RunDetectionPhase", "detected": []})
        await raid.send({"type": "RunSamAcquisitionPhase"})
        await raid.send({"type": "DrvChitPicked", "value": 2})
        await raid.send(
            {
                "type": "MoveUsFlight",
                "flight_id": "S1",
                "hex": hexes[0],
                "altitude": "medium",
                "facing": 2,
            }
        )
        await raid.end_movement("S1")
        await raid.send({"type": "RunAdminPhase"})

    envelopes = await games.store.read(raid.gid)
    codec = codec_for(RULESET)
    decoded = [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]
    kinds = {type(e).__name__ for e in decoded}
    for needed in (
        "AaaPlaced",
        "FireCanPlaced",
        "SamSetUp",
        "SamPlaced",
        "SamAcquisitionDecided",
        "SamReacted",
        "DrvAttackRolled",
        "RandomEventRolled",
        "DrvFlightGenerated",
        "ActivationChecked",
        "MovementIntent",
        "PhaseBegan",
    ):
        assert needed in kinds, needed
    assert any(isinstance(e, ev.SamReacted) and e.fire != "nothing" for e in decoded)
    phases = {e.phase for e in decoded if isinstance(e, ev.PhaseBegan)}
    assert phases >= {
        "drv_radar",
        "air_deployment",
        "detection",
        "sam_acquisition",
        "movement",
        "admin",
    }
    # Every decision names the seed and its rule
    for e in decoded:
        if isinstance(e, ev.Decision):
            assert e.rule.startswith("000_842c81c5c58bc2f6.txt"), e
    # Secrets: never in the player's (or a spectator's) view or events before reveal
    state = await raid.state()
    for role in (Role.PLAYER, Role.SPECTATOR):
        assert _leaks(RULESET.view(state, role)) == []
        for e in decoded:
            shown = RULESET.redact(e, role)
            if shown is None:
                continue
            assert _leaks(shown) == [], e
            # What stands for a secret reads once, in one pair of brackets, after the
            # rule's own citation (it read "Table ((details withheld: ...))").
            if isinstance(shown, ev.AaaPurchased):
                assert shown.rule.endswith("Table (details withheld: DRV secret)"), shown.rule
            if isinstance(shown, DiceRolled) and shown.hidden:
                assert shown.faces == ()
    assert _leaks(RULESET.view(state, Role.REFEREE)) != []
    report = audit(envelopes)
    assert report.ok, report.failure
    assert report.player_rolls > 0 and report.server_rolls > 0
    # End: the seed is revealed and every server roll can be recomputed
    await games.handle(raid.gid, "end", {"type": "EndGame", "result": "raid over"})
    report = audit(await games.store.read(raid.gid))
    assert report.ok and report.seed_revealed and report.rolls_verified == report.server_rolls
