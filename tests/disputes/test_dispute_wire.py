"""The `dispute` and `rule` messages through a real gateway (issue 40 item 5): a player
disputes a decision and gets the finding, a spectator's ruling is refused, the player's is
appended; a field either message lacks is refused, nothing written (the strict-message
rule)."""

from __future__ import annotations

import msgspec
import pytest

from umpire.clients import UmpireClient
from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.events.wire import DisputeFiledReply, Ruled, ViewState
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.dice import seed_source
from umpire.testing.support.legal_play import gateway_client


async def _decision(client: UmpireClient, game_id: str) -> int:
    """Play the openings; the seq of the first event after the first CommandRecorded."""
    for n, command in enumerate(registry.get("conflict_of_heroes").openings):
        await client.send(game_id, msgspec.to_builtins(command), command_id=f"o{n}")
    return 3  # seq 1 GameCreated, 2 the first CommandRecorded, 3 its first decision


async def test_dispute_and_rule_over_the_wire(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create("conflict_of_heroes", {}, client_entropy="waived")
        gid = created.game_id
        seq = await _decision(client, gid)
        asked = {"type": "dispute", "game_id": gid, "seq": seq, "claim": "sideways",
                 "reading": "sideways_moves"}  # fmt: skip
        reply = await client.request(asked)
        assert isinstance(reply, DisputeFiledReply)
        assert reply.seq == seq and not reply.pending and reply.finding is not None
        assert reply.finding["dispute"] == reply.dispute
        head = (await client.view(gid)).seq
        assert head == reply.dispute + 1  # DisputeFiled, then DisputeFound
        dispute = {"type": "dispute", "game_id": gid, "seq": seq}
        for bad in ({**dispute, "claim": "x", "why": 1},
                    {"type": "rule", "game_id": gid, "dispute": reply.dispute,
                     "ruling": "uphold", "by": "player"},
                    {**dispute, "seq": 1, "claim": "x"},
                    {**dispute, "claim": "x" * 1001}):  # fmt: skip
            with pytest.raises(ErrorFrame) as refused:
                await client.request(bad)
            assert refused.value.code in ("bad_message", "not_disputable"), refused.value
        assert (await client.view(gid)).seq == head  # nothing written
        async with UmpireClient(client.url) as spectator:
            await spectator.auth(created.spectator_credential)
            with pytest.raises(ErrorFrame) as refused:
                await spectator.request({"type": "rule", "game_id": gid,
                                         "dispute": reply.dispute, "ruling": "uphold"})  # fmt: skip
            assert refused.value.code == "may_not_rule"
        assert (await client.view(gid)).seq == head
        ruled = await client.request({"type": "rule", "game_id": gid,
                                      "dispute": reply.dispute, "ruling": "uphold"})  # fmt: skip
        assert isinstance(ruled, Ruled) and ruled.seq == head + 1


async def test_an_amend_ruling_over_the_wire_continues_the_game(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    """`rule` with `amend` (issue 40 item 4): answered with the ruling's seq; the view
    that follows is the amended game's, and the game takes commands from there."""
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create("conflict_of_heroes", {}, client_entropy="waived")
        gid = created.game_id
        seq = await _decision(client, gid)
        asked = {"type": "dispute", "game_id": gid, "seq": seq, "claim": "sideways",
                 "reading": "sideways_moves"}  # fmt: skip
        reply = await client.request(asked)
        assert isinstance(reply, DisputeFiledReply) and reply.finding is not None
        head = (await client.view(gid)).seq
        ruled = await client.request({"type": "rule", "game_id": gid,
                                      "dispute": reply.dispute, "ruling": "amend"})  # fmt: skip
        assert isinstance(ruled, Ruled) and ruled.seq == head + 1 and ruled.ruling == "amend"
        view = await client.view(gid)
        assert view.seq > ruled.seq  # GameAmended and the re-applied commands follow it
        await client.send(gid, {"type": "EndGame", "result": "amended"}, command_id="end")
        assert (await client.view(gid)).seq > view.seq


async def test_a_game_created_with_the_operator_as_referee_refuses_the_players_ruling(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    """`create` with `referee: "operator"` (recorded in GameCreated): the player's `rule`
    is refused (`may_not_rule`), nothing written; an unknown referee is refused."""
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        with pytest.raises(ErrorFrame) as refused:
            await client.request({"type": "create", "ruleset": "conflict_of_heroes",
                                  "client_entropy": "waived", "referee": "spectator"})  # fmt: skip
        assert refused.value.code == "bad_message"
        created = await client.create("conflict_of_heroes", {}, client_entropy="waived",
                                      referee="operator")  # fmt: skip
        gid = created.game_id
        seq = await _decision(client, gid)
        reply = await client.request({"type": "dispute", "game_id": gid, "seq": seq,
                                      "claim": "wrong"})  # fmt: skip
        assert isinstance(reply, DisputeFiledReply) and reply.finding is not None
        head = (await client.view(gid)).seq
        with pytest.raises(ErrorFrame) as refused:
            await client.request({"type": "rule", "game_id": gid, "dispute": reply.dispute,
                                  "ruling": "uphold"})  # fmt: skip
        assert refused.value.code == "may_not_rule"
        assert "operator as its referee" in refused.value.message
        assert (await client.view(gid)).seq == head


async def test_every_state_frame_says_who_referees(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    """The `state` frame (`view` now and at a past seq) carries GameCreated.referee, so a
    page that opened a long game at its last events knows who may rule without seq 1."""
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        for referee in ("operator", "player"):
            created = await client.create("counter", {}, referee=referee)
            await client.send(created.game_id, {"type": "Add", "amount": 1}, command_id="a")
            assert (await client.view(created.game_id)).referee == referee
            past = await client.request({"type": "view", "game_id": created.game_id, "at_seq": 1})
            assert isinstance(past, ViewState) and past.referee == referee
