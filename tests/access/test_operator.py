"""The operator token (UMPIRE_OPERATOR_TOKEN) lists and inspects every game as referee,
sees unredacted events, and may not play; a wrong token is refused."""

from __future__ import annotations

from umpire.server.app import Running
from umpire.testing.support.peer import Peer

OPERATOR = "o" * 32


async def test_operator_lists_and_inspects_every_game(gateway: Running, ws_url: str) -> None:
    owners = [await Peer.open(ws_url) for _ in range(3)]
    created = [
        await o.ok(
            {
                "type": "create",
                "client_entropy": "waived",
                "ruleset": "counter",
                "setup": {"target": 50},
            }
        )
        for o in owners
    ]
    for o, c in zip(owners, created, strict=True):
        await o.ok({"type": "command", "game_id": c["game_id"], "command_id": "p",
                    "command": {"type": "RollDice", "dice": "2d6", "purpose": "x"}})  # fmt: skip
    # A player sees only its own game.
    mine = await owners[0].ok({"type": "list_games"})
    assert [g["game_id"] for g in mine["games"]] == [created[0]["game_id"]]

    operator = await Peer.open(ws_url)
    wrong = await operator.request({"type": "auth", "credential": "p" * 32})
    assert wrong["code"] == "unauthorized"
    listing = await operator.request({"type": "list_games"})
    assert listing["games"] == []  # nothing before the operator authenticates
    auth = await operator.ok({"type": "auth", "credential": OPERATOR})
    assert auth["role"] == "operator"
    listing = await operator.ok({"type": "list_games"})
    ids = {g["game_id"]: g for g in listing["games"]}
    assert set(ids) == {c["game_id"] for c in created}
    for c in created:
        summary = ids[c["game_id"]]
        assert summary["role"] == "referee" and summary["ruleset"] == "counter"
        assert summary["seq"] >= 3
        view = await operator.ok({"type": "view", "game_id": c["game_id"]})
        assert view["role"] == "referee" and view["seq"] == summary["seq"]
        await operator.ok({"type": "subscribe", "game_id": c["game_id"], "from_seq": 0})
        refused = await operator.request(
            {
                "type": "command",
                "game_id": c["game_id"],
                "command_id": "op",
                "command": {"type": "Push"},
            }
        )
        assert refused["code"] == "unauthorized"
    # The referee's events are never redacted.
    for c in created:
        events = await _events(operator, c["game_id"], ids[c["game_id"]]["seq"])
        assert [e["seq"] for e in events] == list(range(1, ids[c["game_id"]]["seq"] + 1))
        assert not any(e["redacted"] for e in events)
    for peer in (*owners, operator):
        await peer.close()


async def _events(peer: Peer, game_id: str, last: int) -> list[dict]:
    await peer.wait_for(lambda f: f.get("game_id") == game_id and f.get("seq") == last
                        and f["type"] == "event")  # fmt: skip
    return peer.events(game_id)
