"""Issue 32, item 2: a command's rules run off the event loop, and the CPU time they took is
charged to its sender's admission budget (server/admission.py `work_cost`,
server/games.py `WorkMeter`), so one client's costly opponent turns are paid from its own
budget rather than from other clients' latency."""

from __future__ import annotations

from umpire.clients import UmpireClient
from umpire.server.admission import (
    FREE_WORK_SECONDS,
    WORK_UNIT_SECONDS,
    Admission,
    Budgets,
    work_cost,
)
from umpire.server.app import Running
from umpire.testing.support.largest_setups import largest_conflict_of_heroes


class TestWorkCost:
    def test_the_measured_work_sets_the_cost(self) -> None:
        assert work_cost(0.0) == 0
        assert work_cost(FREE_WORK_SECONDS) == 0  # an ordinary command: its message's unit
        assert work_cost(FREE_WORK_SECONDS + WORK_UNIT_SECONDS) == 1
        assert work_cost(0.13) == 2500  # the largest CoH AI turn the bounds allow

    def test_work_done_leaves_the_sender_in_debt(self) -> None:
        admission = Admission(Budgets(connection_rate=200, connection_burst=2000))
        connection = admission.connection_bucket(0.0)
        admission.charge_work(connection, "10.0.0.1", "command_work", 2500, 0.0)
        assert connection.tokens < 0 and admission.charged["command_work"] == 2500
        refused = admission.charge(connection, "10.0.0.1", "command", 1, 0.0)
        assert refused is not None and refused.scope == "connection"
        assert refused.retry_after > 2.4  # (500 + 1) units at 200 a second
        # Another client at another address pays nothing for it.
        other = admission.connection_bucket(0.0)
        assert admission.charge(other, "10.0.0.2", "command", 1, 0.0) is None


async def test_costly_rules_are_charged_by_their_work(gateway: Running, ws_url: str) -> None:
    # Fails on main: a command cost 1 unit whatever its rules' work. An ordinary command
    # (the default scenario's Pass) is not charged; the same command on the largest map
    # and units is (its legal-action check lists every unit's moves: ~0.2 s of CPU). Two
    # orders a card: a setup that fits the 64 KiB create frame.
    charged = gateway.gateway.admission.charged
    async with UmpireClient(ws_url) as player:
        small = (await player.create("conflict_of_heroes")).game_id
        await player.send(small, {"type": "Pass"})
        assert charged["command_work"] == 0
        setup = largest_conflict_of_heroes(orders_per_card=2)
        game = (await player.create("conflict_of_heroes", setup)).game_id
        await player.send(game, {"type": "Pass"})
    assert charged["command_work"] > 0
