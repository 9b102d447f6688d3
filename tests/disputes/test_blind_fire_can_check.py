"""A blind dispute's finding on a Downtown Admin Phase with no Iron Hand, Strike or Recon unit
over land is given at once (engine/poison.py): 2.2.1's Fire Can activation check is then
made on that public fact alone, and the line never reads the hidden count of inactive Fire
Cans. Before, the check read the count first, so the blinded line raised SecretRead and the
finding waited for the final reveal, though nothing it said rested on the count.

On a MiG day (3.2.1: no SAM may be activated) the Admin Phase's SAM Activation Check does
not read the hidden BSAN either, so the whole Admin batch rests on public values.
"""

from __future__ import annotations

from umpire.engine import registry
from umpire.engine.disputes import codec_decoded, find
from umpire.engine.kit.reading import value_text
from umpire.engine.rulesets.downtown import events as ev
from umpire.events.types import CommandRecorded, DisputeFiled
from umpire.server.games import Games
from umpire.testing.support.drivers import start_setup

NAME = "downtown"


async def test_a_finding_on_an_admin_phase_with_no_mission_over_land_does_not_wait(
    games: Games,
) -> None:
    ruleset = registry.get(NAME)
    setup = {**start_setup(NAME), "mig_day": True, "fire_can_units": 2}
    gid = (await games.create(NAME, setup)).game_id
    cap = {"id": "C1", "mission": "cap", "task": "other", "hex": "0120", "altitude": "medium",
           "facing": 2}  # fmt: skip
    opening = [
        {"type": "DeployGroundUnits"},
        {"type": "CheckDrvRadar"},
        {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"},
        {"type": "ReportUsFlights", "flights": [cap]},
        {"type": "RunDetectionPhase", "detected": []},
        {"type": "RunSamAcquisitionPhase"},
        {"type": "RunAdminPhase"},
    ]
    for i, command in enumerate(opening):
        await games.handle(gid, f"c{i}", command)
    envelopes = await games.store.read(gid)
    decoded = codec_decoded(ruleset, envelopes)
    admin = max(
        seq
        for seq, e in enumerate(decoded, start=1)
        if isinstance(e, CommandRecorded) and e.command_type == "RunAdminPhase"
    )
    checks = [e for e in decoded[admin:] if isinstance(e, ev.DecisionMade)
              and e.topic == "fire_can_activation"]  # fmt: skip
    assert [c.result for c in checks] == ["no check"]  # no mission over land: no roll
    assert setup["fire_can_units"] > 0  # inactive Fire Cans remain: the count was there to read
    reading = ruleset.readings[0]
    for value in reading.alternatives:
        filed = DisputeFiled(who="player", seq=admin, claim="x", reading=reading.name,
                             value=value_text(value), blind=True)  # fmt: skip
        log = [*decoded, filed]
        found = find(ruleset, envelopes, log, len(log), filed, revealed=False)
        assert found is not None, (reading.name, value)  # given now, not at the reveal
