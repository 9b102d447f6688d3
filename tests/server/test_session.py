"""The session (server/session.py) as a protocol state machine with no I/O: every message
type and every refusal, with no store, no event loop and no clock. Each frame goes in with
the time; the requests it makes are answered from a table (tests/support/sessions.py), as
the driver (server/driver.py) answers them from the world. tests/server/test_driver.py
drives the same session over the suite's Valkey."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
import redis.exceptions

from tests.support.sessions import (
    OPERATOR,
    SIGNER,
    Exchange,
    counter_game,
    feed_of,
    frames,
    shared,
)
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.receipt_signature import Statement, signature_valid
from umpire.events.wire import CLOSE_RATE_LIMIT, ViewState
from umpire.server.commands import game_id_for_create
from umpire.server.credentials import Unauthorized, fingerprint
from umpire.server.game_disputes import Filed
from umpire.server.game_records import CommandResult, Created
from umpire.server.requests import (
    AcknowledgedHead,
    Actions,
    BindClientSeed,
    CachedGame,
    Close,
    CreateGame,
    CredentialHeld,
    CredentialsHeld,
    Dispute,
    DropGrant,
    FeedHead,
    Follow,
    GameIds,
    GameSigner,
    Handle,
    HeadView,
    IssueCredentials,
    LoadGame,
    OpenFeed,
    ReadPage,
    ReadVersion,
    ReadVersions,
    Referee,
    Replay,
    ReplayDistance,
    RevokeCredential,
    Rule,
    StopCatchUp,
    Unfollow,
    VerifyCredential,
    Wait,
)

GAME = "g" + "1" * 16
PLAYER = GAME + "." + "P" * 32
SPECTATOR = GAME + "." + "S" * 32


def created_answers(duplicate: bool = False) -> dict[type, Any]:
    return {
        CreateGame: lambda r: Created(
            game_id=r.game_id or GAME,
            ruleset="counter",
            seed_commitment="c" * 64,
            client_seed="",
            seq=1,
            duplicate=duplicate,
        ),
        IssueCredentials: (PLAYER, SPECTATOR),
        # The created reply's receipt: the head of the game just made (docs/audit.md 8.1).
        CachedGame: lambda r: counter_game(r.game_id, 1),
    }


def player() -> Exchange:
    """A session that created GAME (so holds its player credential)."""
    ex = Exchange()
    assert (
        ex.reply({"type": "create", "ruleset": "counter", "id": "c"}, created_answers())["type"]
        == "created"
    )
    return ex


def command(body: dict[str, Any], command_id: str = "a1", **more: Any) -> dict[str, Any]:
    return {"type": "command", "game_id": GAME, "command_id": command_id, "command": body,
            "id": command_id, **more}  # fmt: skip


def result(first: int, last: int, duplicate: bool = False) -> CommandResult:
    return CommandResult(GAME, "a1", first, last, duplicate)


def head_view(r: HeadView) -> ViewState:
    return ViewState(game_id=r.game_id, seq=3, role=r.role.value, ruleset="counter",
                     state={"total": 2}, ended=False, id=r.request_id, head_hash="d" * 64,
                     state_hash="5" * 64)  # fmt: skip


def state_signed(reply: dict[str, Any]) -> bool:
    """Whether a `state` reply's receipt is signed by SIGNER over reply "state" and the one
    seq it states (docs/audit.md 8.4)."""
    statement = Statement(
        game_id=reply["game_id"], key_id=reply["key_id"], reply="state", role=reply["role"],
        first_seq=reply["seq"], head_seq=reply["seq"], head_hash=reply["head_hash"],
        state_hash=reply["state_hash"],
    )  # fmt: skip
    batch = (reply["leaf_index"], reply["tree_size"], reply["proof"])
    return signature_valid(SIGNER.public_key, statement, reply["signature"], batch, reply["blind"])


# -- frames that are not messages -------------------------------------------------------------


def test_welcome_names_the_protocol_and_rulesets() -> None:
    welcome = msgspec.json.decode(Exchange().session.welcome())
    assert welcome["type"] == "welcome" and "counter" in welcome["rulesets"]


def test_frames_that_are_not_messages_get_typed_errors_and_make_no_request() -> None:
    ex = Exchange()
    codes = []
    for raw in ("{not json", '{"type": "teleport", "id": "q"}', b"\x00\x01",
                "[" * 100 + "]" * 100, '{"type": "view", "id": "v"}'):  # fmt: skip
        [reply] = frames(ex.send(raw))
        codes.append((reply["code"], reply.get("id")))
        assert ex.requests == []
    assert codes == [
        ("bad_json", None),
        ("unknown_message_type", "q"),
        ("binary_frame", None),
        ("bad_message", None),
        ("bad_message", "v"),  # no game_id
    ]


def test_too_many_messages_close_with_the_rate_limit_code() -> None:
    ex = Exchange()
    ex.session.tokens = 0.0
    assert ex.send({"type": "list_games", "id": "l"}) == [
        Close(CLOSE_RATE_LIMIT, "too many messages per second")
    ]
    # The time passed in refills the tokens: a second later the same message is answered.
    ex.now += 1.0
    assert ex.reply({"type": "list_games", "id": "l"})["type"] == "games"


def test_a_mistake_is_logged_at_the_time_passed_in_not_the_clock() -> None:
    ex = Exchange(shared())
    ex.gw.mistakes.clock = lambda: pytest.fail("the session read the mistake log's clock")
    ex.gw.mistakes.tokens, ex.gw.mistakes.refilled = 0.0, 0.0  # its rate spent at time 0 ...
    ex.now = 1.0  # ... and refilled a second later, by the time the frame comes
    ex.send("{not json")
    assert ex.gw.mistakes.suppressed == 0 and ex.gw.mistakes.refilled == 1.0


def test_a_draining_gateway_answers_shutting_down() -> None:
    ex = Exchange()
    ex.gw.draining = True
    reply = ex.reply({"type": "list_games", "id": "l"})
    assert reply["code"] == "shutting_down" and reply["id"] == "l" and ex.requests == []


# -- create, auth, revoke ---------------------------------------------------------------------


def test_create_asks_for_the_game_and_its_credentials_and_grants_the_player() -> None:
    ex = Exchange()
    reply = ex.reply({"type": "create", "ruleset": "counter", "setup": {"target": 9},
                      "id": "c"}, created_answers())  # fmt: skip
    assert ex.kinds() == [
        "CreateGame",
        "IssueCredentials",
        "CachedGame",
        "GameSigner",
        "SignReceipt",
    ]
    create = ex.requests[0]
    assert isinstance(create, CreateGame) and create.setup == {"target": 9}
    assert ex.requests[1] == IssueCredentials(GAME, None)
    assert reply["type"] == "created" and reply["player_credential"] == PLAYER
    assert (reply["head_seq"], reply["head_hash"]) == (1, "h" * 64) and reply["state_hash"]
    # Signed by the game's key, over seqs 1..head (docs/audit.md 8.4).
    statement = Statement(
        game_id=GAME, key_id=SIGNER.key_id, reply="created", role="player", first_seq=1,
        head_seq=1, head_hash="h" * 64, state_hash=reply["state_hash"],
    )  # fmt: skip
    assert reply["key_id"] == SIGNER.key_id and reply["receipt_key"] == SIGNER.public_key
    batch = (reply["leaf_index"], reply["tree_size"], reply["proof"])
    assert batch == (0, 1, [])  # a lone reply: a tree of one
    assert signature_valid(SIGNER.public_key, statement, reply["signature"], batch, reply["blind"])
    assert ex.session.roles == {GAME: Role.PLAYER} and ex.gw.metrics.games_created == 1
    assert ex.gw.holders == {(GAME, ex.session.grants[GAME]): {ex.session.holder}}


def test_a_resent_create_names_its_game_and_reissues_in_the_resent_slot() -> None:
    ex = Exchange()
    ex.reply({"type": "create", "ruleset": "counter", "create_id": "x" * 32, "id": "c"},
             created_answers(duplicate=True))  # fmt: skip
    create, issue, _receipt, _signer, _signed = ex.requests
    assert isinstance(create, CreateGame) and create.game_id == game_id_for_create("x" * 32)
    assert isinstance(issue, IssueCredentials) and issue.resent == "resent-create"
    assert ex.gw.metrics.games_created == 0


def test_a_create_past_the_grant_limit_is_refused_before_any_request() -> None:
    ex = Exchange(shared(max_grants_per_connection=1))
    ex.reply({"type": "create", "ruleset": "counter", "id": "c"}, created_answers())
    refused = ex.reply({"type": "create", "ruleset": "counter", "id": "d"})
    assert refused["code"] == "too_many_grants" and ex.requests == []


def test_auth_with_a_good_credential_grants_its_role() -> None:
    ex = Exchange()
    reply = ex.reply({"type": "auth", "credential": SPECTATOR, "id": "a"},
                     {VerifyCredential: (GAME, Role.SPECTATOR)})  # fmt: skip
    assert ex.requests == [VerifyCredential(SPECTATOR)]
    assert reply == {"type": "authenticated", "game_id": GAME, "role": "spectator", "id": "a"}
    # A spectator may view but not command, and is told why (no Handle asked).
    view = ex.reply({"type": "view", "game_id": GAME, "id": "v"},
                    {CredentialHeld: True, HeadView: head_view})  # fmt: skip
    assert view["role"] == "spectator"
    refused = ex.reply(command({"type": "Push"}))
    assert refused["code"] == "unauthorized" and "only the player" in refused["message"]
    assert ex.kinds() == []


def test_auth_with_a_bad_credential_is_refused_and_grants_nothing() -> None:
    ex = Exchange()
    bad = Unauthorized("unknown credential")
    reply = ex.reply({"type": "auth", "credential": PLAYER, "id": "a"}, {VerifyCredential: bad})
    assert reply["code"] == "unauthorized" and reply["id"] == "a"
    assert PLAYER not in reply["message"] and ex.session.grants == {} and ex.gw.holders == {}
    view = ex.reply({"type": "view", "game_id": GAME, "id": "v"})
    assert view["code"] == "unauthorized" and "send 'auth' first" in view["message"]


def test_a_credential_revoked_while_it_was_verified_grants_nothing() -> None:
    ex = Exchange()
    ex.gw.revoked[(GAME, ex_digest(PLAYER))] = None
    reply = ex.reply({"type": "auth", "credential": PLAYER, "id": "a"},
                     {VerifyCredential: (GAME, Role.PLAYER)})  # fmt: skip
    assert reply["code"] == "unauthorized" and "was revoked" in reply["message"]


def ex_digest(credential: str) -> str:
    from umpire.server.credentials import fingerprint

    return fingerprint(credential)[1]


def test_the_operator_token_makes_no_request() -> None:
    ex = Exchange()
    reply = ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})
    assert reply["role"] == "operator" and ex.requests == [] and ex.session.operator


def test_only_the_operator_may_revoke_and_its_revoke_is_a_request() -> None:
    ex = player()
    refused = ex.reply({"type": "revoke", "credential": PLAYER, "id": "r"})
    assert refused["code"] == "unauthorized" and ex.requests == []
    ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})
    reply = ex.reply({"type": "revoke", "credential": PLAYER, "id": "r"},
                     {RevokeCredential: True})  # fmt: skip
    assert ex.requests == [RevokeCredential(PLAYER, GAME, ex_digest(PLAYER))]
    assert reply == {"type": "revoked", "game_id": GAME, "existed": True, "dropped": 1,
                     "id": "r"}  # fmt: skip


def test_a_revoked_grant_loses_the_game_and_its_subscription_at_once() -> None:
    ex = player()
    ex.send({"type": "subscribe", "game_id": GAME, "id": "s"},
            {CredentialHeld: True, FeedHead: None, OpenFeed: feed_of(GAME)})  # fmt: skip
    sub = ex.session.lose_game_now(GAME)
    assert sub is not None and sub not in sub.feed.subscriptions and ex.session.subs == {}
    refused = ex.reply(command({"type": "Push"}))
    assert refused["code"] == "unauthorized" and "was revoked" in refused["message"]
    notice = msgspec.json.decode(ex.session.revoked_notice(GAME, dropped=True))
    assert notice["code"] == "credential_revoked" and notice["details"]["subscription_dropped"]


# -- commands ---------------------------------------------------------------------------------


def test_a_command_is_a_handle_request_and_its_reply_carries_the_receipt() -> None:
    ex = player()
    game = counter_game(GAME, seq=3)
    reply = ex.reply(command({"type": "Add", "amount": 2}),
                     {Handle: result(2, 3), CachedGame: game}, step=0.01)  # fmt: skip
    assert ex.kinds() == ["Handle", "CachedGame", "GameSigner", "SignReceipt"]
    handle = ex.requests[0]
    assert isinstance(handle, Handle) and handle.command == {"type": "Add", "amount": 2}
    assert handle.role is Role.PLAYER and handle.digest == ex.session.grants[GAME]
    assert reply["type"] == "accepted" and reply["seqs"] == [2, 3] and reply["id"] == "a1"
    assert reply["head_seq"] == 3 and reply["head_hash"] == "h" * 64
    assert len(reply["state_hash"]) == 64
    # Signed by the game's key over the command's seqs to the head (docs/audit.md 8.4).
    statement = Statement(
        game_id=GAME, key_id=SIGNER.key_id, reply="accepted", role="player", first_seq=2,
        head_seq=3, head_hash="h" * 64, state_hash=reply["state_hash"],
    )  # fmt: skip
    batch = (reply["leaf_index"], reply["tree_size"], reply["proof"])
    assert batch == (0, 1, [])  # a lone reply: a tree of one
    assert signature_valid(SIGNER.public_key, statement, reply["signature"], batch, reply["blind"])
    assert ex.gw.admission.charged["command_work"] >= 0


def test_a_refused_command_is_a_typed_error() -> None:
    ex = player()
    bad = UmpireError("amount must be <= 6", amount=9)
    reply = ex.reply(command({"type": "Add", "amount": 9}, "b"), {Handle: bad})
    assert reply["type"] == "error" and reply["id"] == "b" and "<= 6" in reply["message"]
    assert reply["details"] == {"amount": 9}


def test_a_command_refused_as_unauthorized_drops_the_grant_everywhere() -> None:
    ex = player()
    revoked = Unauthorized(f"the credential for game {GAME!r} was revoked", game_id=GAME)
    reply = ex.reply(command({"type": "Push"}), {Handle: revoked, DropGrant: 1})
    assert ex.kinds() == ["Handle", "DropGrant"] and reply["code"] == "unauthorized"


def test_a_receipt_the_store_cannot_give_is_left_empty_not_an_error() -> None:
    ex = player()
    gone = UmpireError("the store is unavailable")
    reply = ex.reply(command({"type": "Push"}), {Handle: result(2, 2), CachedGame: gone})
    assert reply["type"] == "accepted" and reply["head_seq"] == 0 and reply["head_hash"] == ""
    assert reply["signature"] == ""  # nothing to sign
    # A signer the store cannot give: the command is written, its answer goes unsigned.
    answers = {Handle: result(3, 3), CachedGame: counter_game(GAME, 3), GameSigner: gone}
    reply = ex.reply(command({"type": "Push"}, "c"), answers)
    assert reply["type"] == "accepted" and reply["head_seq"] == 3 and reply["signature"] == ""


def test_bind_seed_is_a_request_answered_as_accepted() -> None:
    ex = player()
    reply = ex.reply({"type": "bind_seed", "game_id": GAME, "client_seed": "s", "id": "b"},
                     {BindClientSeed: result(2, 2), CachedGame: counter_game(GAME, 2)})  # fmt: skip
    assert ex.requests[0] == BindClientSeed(GAME, "s", Role.PLAYER, ex.session.grants[GAME])
    assert reply["type"] == "accepted" and reply["seqs"] == [2]


def test_a_store_that_is_unreachable_is_store_unavailable() -> None:
    ex = player()
    reply = ex.reply(command({"type": "Push"}), {Handle: ConnectionRefusedError("gone")})
    assert reply["code"] == "store_unavailable" and reply["id"] == "a1"


def test_an_unexpected_error_is_internal_and_the_session_goes_on() -> None:
    ex = player()
    reply = ex.reply(command({"type": "Push"}), {Handle: KeyError("x")})
    assert reply["code"] == "internal" and "KeyError" in reply["message"]
    assert ex.reply({"type": "unsubscribe", "game_id": GAME, "id": "u"})["type"] == "unsubscribed"


def test_a_cancellation_is_not_answered_but_raised_to_the_driver() -> None:
    ex = player()
    with pytest.raises(BaseException, match="cancelled"):
        ex.send(command({"type": "Push"}), {Handle: _Cancelled("cancelled")})
    # The session is ready for the next frame.
    assert ex.reply({"type": "unsubscribe", "game_id": GAME, "id": "u"})["type"] == "unsubscribed"


class _Cancelled(BaseException):
    pass


# -- admission --------------------------------------------------------------------------------


def test_over_budget_refuses_and_pauses_reading_from_the_time_passed_in() -> None:
    ex = player()
    ex.session.budget.tokens = -100.0
    refused = ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})
    assert refused["code"] == "over_budget" and refused["details"]["scope"] == "connection"
    assert ex.session.paused_until > 0.0 and ex.requests == []
    # The time passed in refills the budget: a minute later the same message is answered.
    ex.now += 60.0
    assert ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})["role"] == "operator"


def test_a_players_command_over_budget_waits_for_it_and_is_answered() -> None:
    ex = player()
    ex.session.budget.tokens = -20.0
    reply = ex.reply(command({"type": "Push"}),
                     {Wait: None, Handle: result(2, 2), CachedGame: counter_game(GAME, 2)},
                     step=0.5)  # fmt: skip
    assert reply["type"] == "accepted" and ex.kinds()[0] == "Wait"
    assert all(isinstance(r, Wait) and 0 < r.seconds <= 0.5 for r in ex.requests[:-4])
    assert ex.gw.admission.paced["sendcommand"] >= 1


# -- views and listings -----------------------------------------------------------------------


def test_a_view_of_the_head_is_a_head_view_request() -> None:
    ex = player()
    reply = ex.reply({"type": "view", "game_id": GAME, "id": "v"},
                     {CredentialHeld: True, HeadView: head_view})  # fmt: skip
    # Checked first: a revocation this gateway missed shows nothing more.
    assert ex.kinds() == ["CredentialHeld", "HeadView", "GameSigner", "SignReceipt"]
    assert ex.requests[1] == HeadView(GAME, Role.PLAYER, "v")
    assert reply["type"] == "state" and reply["role"] == "player" and reply["id"] == "v"
    # Its receipt is signed by the game's key, as an `accepted` one (docs/audit.md 8.4).
    assert reply["key_id"] == SIGNER.key_id and state_signed(reply)
    assert not state_signed({**reply, "state_hash": "6" * 64})


def test_a_view_of_a_game_without_a_receipt_key_or_store_goes_unsigned() -> None:
    ex = player()
    for signer in (None, redis.exceptions.ConnectionError("gone")):
        answers = {CredentialHeld: True, HeadView: head_view, GameSigner: signer}
        reply = ex.reply({"type": "view", "game_id": GAME, "id": "v"}, answers)
        assert reply["type"] == "state" and reply["head_hash"] == "d" * 64
        assert (reply["key_id"], reply["signature"], reply["tree_size"]) == ("", "", 0)


def test_a_view_at_a_past_seq_is_charged_by_its_replay_then_replayed() -> None:
    ex = player()
    reply = ex.reply({"type": "view", "game_id": GAME, "at_seq": 1, "id": "w"},
                     {CredentialHeld: True, LoadGame: counter_game(GAME, 3), ReplayDistance: 1,
                      Replay: ({"total": 0}, False, "e" * 64),
                      Referee: "operator"})  # fmt: skip
    assert ex.kinds() == ["CredentialHeld", "LoadGame", "ReplayDistance", "Replay", "Referee",
                          "GameSigner", "SignReceipt"]  # fmt: skip
    assert reply["seq"] == 1 and reply["state"] == {"total": 0} and reply["actions"] == []
    assert reply["head_hash"] == "e" * 64
    # A past state is signed too: its receipt states event 1's hash and the view there.
    assert state_signed(reply)
    assert reply["referee"] == "operator"  # GameCreated.referee, for a page without seq 1
    at_head = ex.reply({"type": "view", "game_id": GAME, "at_seq": 3, "id": "x"},
                       {CredentialHeld: True, LoadGame: counter_game(GAME, 3),
                        Actions: [{"type": "Push"}], ReplayDistance: 0,
                        Replay: ({"total": 2}, False, "f" * 64), Referee: "player"})  # fmt: skip
    assert ex.kinds() == [
        "CredentialHeld", "LoadGame", "Actions", "ReplayDistance", "Replay", "Referee",
        "GameSigner", "SignReceipt",
    ]  # fmt: skip
    assert at_head["actions"] == [{"type": "Push"}]


def test_a_view_at_a_seq_out_of_range_is_refused_before_any_replay() -> None:
    ex = player()
    reply = ex.reply({"type": "view", "game_id": GAME, "at_seq": 9, "id": "w"},
                     {CredentialHeld: True, LoadGame: counter_game(GAME, 3)})  # fmt: skip
    assert reply["code"] == "seq_out_of_range" and reply["details"]["head"] == 3
    assert ex.kinds() == ["CredentialHeld", "LoadGame"]


def test_list_games_reads_versions_and_each_rulesets_first_event_once() -> None:
    ex = Exchange()
    ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})
    ex.gw.ruleset_names[GAME] = "counter"  # read before: not read again
    empty = "g" + "3" * 16  # a version but no first event (deleted meanwhile)
    answers = {GameIds: [GAME, "gone", empty], ReadVersions: [b"3", None, b"1"], ReadPage: []}
    reply = ex.reply({"type": "list_games", "id": "l"}, answers)
    assert ex.kinds() == ["GameIds", "ReadVersions", "ReadPage"]
    assert ex.requests[-1] == ReadPage(empty, 1, 1)
    assert reply["games"] == [{"game_id": GAME, "ruleset": "counter", "role": "referee",
                               "seq": 3}]  # fmt: skip


def test_a_players_listing_names_its_own_games_only() -> None:
    ex = player()
    ex.gw.ruleset_names[GAME] = "counter"
    reply = ex.reply({"type": "list_games", "id": "l"},
                     {CredentialsHeld: [True], ReadVersions: [b"2"]})  # fmt: skip
    # Its credential checked in the store first (a revocation this gateway missed).
    assert ex.kinds() == ["CredentialsHeld", "ReadVersions"]
    assert ex.requests[1] == ReadVersions([GAME]) and reply["games"][0]["role"] == "player"


def test_a_listing_leaves_out_and_drops_a_credential_revoked_unheard() -> None:
    ex = player()
    ex.gw.ruleset_names[GAME] = "counter"
    reply = ex.reply({"type": "list_games", "id": "l"},
                     {CredentialsHeld: [False], DropGrant: 1, ReadVersions: []})  # fmt: skip
    assert ex.kinds() == ["CredentialsHeld", "DropGrant"] and reply["games"] == []


def test_a_listing_the_store_cannot_read_is_store_unavailable() -> None:
    ex = player()
    gone = ConnectionRefusedError("gone")
    reply = ex.reply({"type": "list_games", "id": "l"},
                     {CredentialsHeld: [True], ReadVersions: gone})  # fmt: skip
    assert reply["code"] == "store_unavailable"


def test_a_redis_error_handed_over_as_the_driver_does_is_store_unavailable() -> None:
    # redis-py's own error, which the session knows without importing redis-py: the
    # driver hands it over as StoreUnreachable (events/unreachable.py `for_session`).
    ex = player()
    timed_out = redis.exceptions.TimeoutError("/home/someone/v.sock")
    reply = ex.reply({"type": "list_games", "id": "l"},
                     {CredentialsHeld: [True], ReadVersions: timed_out})  # fmt: skip
    assert reply["code"] == "store_unavailable"
    assert reply["message"] == (
        "the store is unavailable (TimeoutError: no answer in time); retry later"
    )


# -- subscriptions ----------------------------------------------------------------------------


def test_subscribe_opens_the_feed_and_follows_then_unsubscribe_unfollows() -> None:
    ex = player()
    feed = feed_of(GAME)
    out = ex.send({"type": "subscribe", "game_id": GAME, "view": True, "id": "s"},
                  {CredentialHeld: True, FeedHead: None, OpenFeed: feed,
                   HeadView: head_view})  # fmt: skip
    assert ex.kinds() == [
        "CredentialHeld", "FeedHead", "OpenFeed", "HeadView", "GameSigner", "SignReceipt"
    ]  # fmt: skip
    replies, effects = frames(out), [o for o in out if not isinstance(o, bytes)]
    assert [r["type"] for r in replies] == ["subscribed", "state"]
    assert state_signed(replies[1])  # the view a subscription opens with, signed
    [follow] = effects
    assert isinstance(follow, Follow) and follow.sub is ex.session.subs[GAME]
    assert follow.sub.next_seq == 4 and follow.sub in feed.subscriptions

    again = ex.send({"type": "subscribe", "game_id": GAME, "id": "t"},
                    {CredentialHeld: True, FeedHead: 1, OpenFeed: feed,
                     StopCatchUp: None})  # fmt: skip
    assert ex.kinds() == ["CredentialHeld", "FeedHead", "StopCatchUp", "OpenFeed"]
    assert isinstance(again[0], Unfollow) and again[0].sub is follow.sub
    assert isinstance(again[-1], Follow) and follow.sub not in feed.subscriptions

    out = ex.send({"type": "unsubscribe", "game_id": GAME, "id": "u"}, {StopCatchUp: None})
    unfollow, reply = out
    assert isinstance(unfollow, Unfollow) and unfollow.sub is again[-1].sub
    assert msgspec.json.decode(reply) == {"type": "unsubscribed", "game_id": GAME, "id": "u"}
    assert ex.session.subs == {} and not feed.subscriptions


def test_a_subscribe_whose_view_fails_leaves_no_subscription() -> None:
    ex = player()
    feed = feed_of(GAME)
    out = ex.send({"type": "subscribe", "game_id": GAME, "view": True, "id": "s"},
                  {CredentialHeld: True, FeedHead: None, OpenFeed: feed,
                   HeadView: UmpireError("no")})  # fmt: skip
    subscribed, unfollow, error = out
    assert msgspec.json.decode(subscribed)["type"] == "subscribed"  # type: ignore[arg-type]
    assert isinstance(unfollow, Unfollow) and msgspec.json.decode(error)["type"] == "error"
    assert ex.session.subs == {} and not feed.subscriptions


@pytest.mark.parametrize(
    ("acknowledged", "code"),
    [(None, "log_rewound"), (9, "log_rewound"), (12, "log_rewound"), (8, "from_seq_past_head")],
)
def test_a_subscribe_from_past_the_log_is_log_rewound_or_a_mistake(
    acknowledged: int | None, code: str
) -> None:
    # From the checkpoints' highest acknowledged seq: past it, never sent to anyone (a
    # mistaken seq, said as such with what is allowed); at or below it, or unknown
    # (no checkpoints), events the store lost.
    ex = player()
    reply = ex.reply({"type": "subscribe", "game_id": GAME, "from_seq": 9, "id": "s"},
                     {CredentialHeld: True, FeedHead: 2, ReadVersion: 5,
                      AcknowledgedHead: acknowledged})  # fmt: skip
    assert reply["code"] == code and reply["details"]["head"] == 5, reply
    assert "allowed: 0 to 5" in reply["message"], reply


def test_a_subscribe_with_a_revoked_credential_drops_the_grant() -> None:
    ex = player()
    reply = ex.reply({"type": "subscribe", "game_id": GAME, "id": "s"},
                     {CredentialHeld: False, DropGrant: 1})  # fmt: skip
    assert reply["code"] == "unauthorized" and ex.kinds() == ["CredentialHeld", "DropGrant"]


def test_subscriptions_past_the_limit_are_refused() -> None:
    ex = Exchange(shared(max_subscriptions=1))
    ex.reply({"type": "auth", "credential": OPERATOR, "id": "o"})
    ex.send({"type": "subscribe", "game_id": GAME, "id": "s"},
            {FeedHead: None, OpenFeed: feed_of(GAME)})  # fmt: skip
    other = "g" + "2" * 16
    reply = ex.reply({"type": "subscribe", "game_id": other, "id": "t"})
    assert reply["type"] == "error" and reply["details"]["limit"] == 1 and ex.requests == []
    assert reply["code"] == "too_many_subscriptions", reply


def test_a_dispute_and_a_ruling_carry_the_connection_s_credential_to_the_append() -> None:
    # Fails when they carry none: a revocation landing while either is in flight, past the
    # session's own check, was not refused by the append as a command's is.
    ex = player()
    digest = fingerprint(PLAYER)[1]
    filed = ex.reply({"type": "dispute", "game_id": GAME, "seq": 2, "claim": "x", "id": "d"},
                     {CredentialHeld: True, ReadVersion: 4, Dispute: Filed(id=5)})  # fmt: skip
    assert filed["type"] == "dispute_filed", filed
    (dispute,) = [r for r in ex.requests if isinstance(r, Dispute)]
    assert dispute.digest == digest
    ruled = ex.reply({"type": "rule", "game_id": GAME, "dispute": 5, "ruling": "uphold", "id": "r"},
                     {CredentialHeld: True, ReadVersion: 5, Rule: 6})  # fmt: skip
    assert ruled["type"] == "ruled", ruled
    (rule,) = [r for r in ex.requests if isinstance(r, Rule)]
    assert rule.digest == digest
