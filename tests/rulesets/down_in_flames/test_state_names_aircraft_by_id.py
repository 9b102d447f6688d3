"""`umpire state` names each aircraft by the id the commands take ("a1"), not a label made
of it ("A1"): an `Attack attacker=A1` would be refused as naming no aircraft."""

from __future__ import annotations

from tests.rulesets.down_in_flames.setups import duel
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.server.render import view_lines


def test_aircraft_are_shown_by_their_ids() -> None:
    lines = [
        line.strip()
        for line in view_lines(RULESET.view(duel(), Role.PLAYER), labels=RULESET.labels)
    ]
    assert "a1:" in lines and "b1:" in lines
    assert "A1:" not in lines
