"""The wire protocol shared by the gateway and its clients: JSON text frames, every
message a tagged msgspec Struct. It lives in events/ because clients may import events/
but never server/ (ARCHITECTURE.md).

docs/protocol.md describes it; docs/protocol.schema.json is generated from these types by
`python -m umpire.events.wire` (a test fails when the checked-in schema is stale).
Messages from the client carry an optional `id`, echoed in the reply.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from umpire.events.schema_descriptions import cleaned_descriptions

PROTOCOL_VERSION = 1

GameId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
CommandId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.:-]{1,128}$")]
RequestId = Annotated[str, Meta(max_length=128)]
CreateId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{16,128}$")]
Seq = Annotated[int, Meta(ge=0)]
# What a command's nonce is, said in its schema and in the refusal of a malformed one.
NONCE_RULE = (
    "32 to 64 lowercase hex digits (0-9, a-f): fresh entropy of the client's for this "
    "command, the same on every sending of its command id"
)

# Close codes (RFC 6455 private range 4000-4999 for ours).
CLOSE_RESYNC = 4000  # the client fell too far behind: reconnect and resume from last seq
CLOSE_RATE_LIMIT = 4008  # too many messages per second
CLOSE_TOO_MANY_CONNECTIONS = 4029  # too many connections from one address
CLOSE_GOING_AWAY = 1001  # server shutting down
CLOSE_TOO_BIG = 1009  # frame over the size limit
CLOSE_KEEPALIVE_TIMEOUT = 1011  # no pong to a keepalive ping within the ping timeout


# -- client to server ------------------------------------------------------------------


class _Strict(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every client message is: a field it does not have is refused (`bad_message`,
    naming the fields it takes), never dropped. Dropped, a typo changes what happens:
    `"die"` for `dice` rolled the server's dice, `"expectedSeq"` skipped the version check.
    (Server messages stay open: an older client must read a newer server's replies.)"""


class Create(_Strict, frozen=True, tag="create"):
    """Create a game. Answered by `created` with the player and spectator credentials and
    the commitment to the server's seed; then send `bind_seed` (client_entropy "bind", the
    default) before the first roll, or create with "waived" (recorded in the log).

    `client_seed` is refused (error `client_seed_refused`): a seed sent before the
    commitment is published would let the server grind its seed.
    """

    ruleset: Annotated[str, Meta(max_length=64)]
    setup: dict[str, Any] = {}
    client_seed: Annotated[str, Meta(min_length=1, max_length=128)] | None = None
    # Makes the create safe to re-send (after a dropped connection): the same create_id
    # answers with the same game, not a second one. A random value: whoever sends it
    # gets a player credential for that game.
    create_id: CreateId | None = None
    id: RequestId | None = None
    # A scenario the ruleset ships (`umpire scenarios RULESET`); `setup`'s top-level
    # fields are laid over the scenario's.
    scenario: Annotated[str, Meta(min_length=1, max_length=64)] | None = None
    client_entropy: Literal["bind", "waived"] = "bind"
    # Let the player enter physical dice for the opponent's rolls (recorded in GameCreated).
    opponent_manual_dice: bool = False
    # Who rules on the game's disputes (recorded in GameCreated): the player (or the
    # operator), or the operator alone.
    referee: Literal["player", "operator"] = "player"


class BindSeed(_Strict, frozen=True, tag="bind_seed"):
    """The player binds its seed for the game's current seed epoch, after it has seen the
    epoch's commitment (`created`, or a mid-game SeedRevealed's `next_commitment`).
    Answered by `accepted` (command id "umpire:bind:<epoch>")."""

    game_id: GameId
    client_seed: Annotated[str, Meta(min_length=1, max_length=128)]
    credential: Annotated[str, Meta(max_length=256)] | None = None
    id: RequestId | None = None


class Auth(_Strict, frozen=True, tag="auth"):
    """Present a game credential (or the operator token) for this connection."""

    credential: Annotated[str, Meta(max_length=256)]
    id: RequestId | None = None


class Subscribe(_Strict, frozen=True, tag="subscribe"):
    """Receive every event after `from_seq`, exactly once and in order; then live ones.

    With `view`, the current state comes first; events then follow from `from_seq` if it
    is given, else from the view's seq. With `views`, after each batch of events appended
    to the game the subscriber is sent the new `state` (its role's view, `actions`, `map`;
    no `id`), after that batch's events, without asking and without being charged.
    """

    game_id: GameId
    from_seq: Seq | None = None
    view: bool = False
    views: bool = False
    credential: Annotated[str, Meta(max_length=256)] | None = None
    id: RequestId | None = None


class Unsubscribe(_Strict, frozen=True, tag="unsubscribe"):
    """Stop receiving a game's events."""

    game_id: GameId
    id: RequestId | None = None


class SendCommand(_Strict, frozen=True, tag="command"):
    """A player command. `dice` are manual faces (one list per roll). `nonce` is fresh
    entropy of the client's for this command (32 to 64 lowercase hex digits), from which
    with the seeds its server rolls derive: required in a game that binds client entropy
    unless `dice` are given, not used in one that waived it (docs/protocol.md,
    docs/security.md)."""

    game_id: GameId
    command_id: CommandId
    command: dict[str, Any]
    dice: list[list[int]] | None = None
    expected_seq: Seq | None = None
    nonce: Annotated[str, Meta(pattern="^[0-9a-f]{32,64}$", description=NONCE_RULE)] | None = None
    credential: Annotated[str, Meta(max_length=256)] | None = None
    id: RequestId | None = None


class ListGames(_Strict, frozen=True, tag="list_games"):
    """The games this connection holds credentials for (all games for the operator)."""

    id: RequestId | None = None


class GetView(_Strict, frozen=True, tag="view"):
    """A game's state as this connection's role sees it: now, or after event `at_seq`."""

    game_id: GameId
    id: RequestId | None = None
    at_seq: Annotated[int, Meta(ge=1)] | None = None


class Revoke(_Strict, frozen=True, tag="revoke"):
    """Operator only: revoke a game credential. It is refused on its next `auth`, and every
    connection holding it loses that game (subscription dropped, commands refused)."""

    credential: Annotated[str, Meta(max_length=256)]
    id: RequestId | None = None


class FileDispute(Struct, frozen=True, tag="dispute", kw_only=True, forbid_unknown_fields=True):
    """Dispute the decision or roll at `seq` (docs/audit.md "Disputes") as this
    connection's role, with a `claim` and, optionally, a declared `reading` switched to
    `value` (its first other value when ""). Answered `dispute_filed` with the finding, or
    pending reveal."""

    game_id: GameId
    seq: Annotated[int, Meta(ge=1)]
    claim: Annotated[str, Meta(min_length=1, max_length=1000)]
    reading: Annotated[str, Meta(max_length=64)] = ""
    value: Annotated[str, Meta(max_length=64)] = ""
    id: RequestId | None = None


class RuleDispute(Struct, frozen=True, tag="rule", kw_only=True, forbid_unknown_fields=True):
    """Rule on a found dispute: `uphold` (the log stands; `amend` is refused until it is
    built). Only a role that may rule: the player, or the operator."""

    game_id: GameId
    dispute: Annotated[int, Meta(ge=1)]
    ruling: Literal["uphold", "amend"]
    id: RequestId | None = None


ClientMessage = (
    Create | Auth | Subscribe | Unsubscribe | SendCommand | ListGames | GetView | Revoke | BindSeed
    | FileDispute | RuleDispute
)  # fmt: skip


# -- server to client ------------------------------------------------------------------


class Welcome(Struct, frozen=True, tag="welcome", kw_only=True):
    """Sent once on connect."""

    protocol: int
    server: str
    rulesets: list[str]


class Created(Struct, frozen=True, tag="created", kw_only=True):
    """A new game and its two credentials (shown once; stored only as hashes), with the
    receipt of the game's head for the player (`head_seq`, `head_hash`, `state_hash`)."""

    game_id: str
    ruleset: str
    player_credential: str
    spectator_credential: str
    seed_commitment: str
    client_seed: str  # "" until the client binds one with `bind_seed`
    id: str | None = None
    client_entropy: str = "bind"
    # The receipt (docs/audit.md 8.1): 0 and "" only if the store went away meanwhile.
    head_seq: int = 0
    head_hash: str = ""
    state_hash: str = ""
    # The receipt's signature (docs/audit.md 8.4) over seqs 1..head_seq, by the game's
    # receipt key (`key_id`, its public half `receipt_key`); "" if the server holds none.
    key_id: str = ""
    signature: str = ""
    receipt_key: str = ""
    # A batch signature's tree (docs/audit.md 8.4): the receipt's leaf index, the tree's
    # size and the inclusion proof (hex sibling hashes, leaf to root); 0, 0, [] unsigned.
    leaf_index: int = 0
    tree_size: int = 0
    proof: list[str] = msgspec.field(default_factory=list)
    # The receipt's leaf's blind (docs/audit.md 8.4: 32 hex digits, hashed into its leaf;
    # "" for an unsigned receipt, or a leaf of a tree signed before blinds).
    blind: str = ""


class Authenticated(Struct, frozen=True, tag="authenticated", kw_only=True):
    """A credential was accepted for a game (or as operator, game_id empty)."""

    game_id: str
    role: str
    id: str | None = None


class Subscribed(Struct, frozen=True, tag="subscribed", kw_only=True):
    """Events after `from_seq` follow; `head` is the game's seq at subscription."""

    game_id: str
    from_seq: int
    head: int
    role: str
    id: str | None = None


class Unsubscribed(Struct, frozen=True, tag="unsubscribed", kw_only=True):
    """No more events of this game will be sent."""

    game_id: str
    id: str | None = None


class Action(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One command a role may send now: its `type`, the rule that allows it, a one-line
    description citing that rule, and the JSON Schema of the whole command object
    (`type` included as a constant), narrowed to what is legal now. `next`: the rules'
    sequence of play expects this one now (the phase's own step), where the ruleset knows
    it; sent only when true, so a frame without it reads as before to an old client."""

    type: str
    rule: str
    description: str
    schema: dict[str, Any]
    next: bool = False


class ViewState(Struct, frozen=True, tag="state", kw_only=True):
    """A game's state at `seq` as `role` sees it, with the commands `role` may send now
    (`actions`: empty for a spectator, after the end, and for a past `at_seq`) and its
    receipt: the hash of event `seq` (`head_hash`) and the state hash of this view
    (events.receipt), signed as an `accepted` one is (docs/audit.md 8.4)."""

    game_id: str
    seq: int
    role: str
    ruleset: str
    state: Any
    ended: bool
    id: str | None = None
    actions: list[Action] = []
    head_hash: str = ""
    state_hash: str = ""
    # The ruleset's declared map as this role sees it (engine/map_view.py): grid layout and
    # parity, terrain, targets, zones and the pieces on the map now; None: no map.
    map: dict[str, Any] | None = None
    # Who rules the game's disputes besides the operator (GameCreated.referee): a page
    # that opened a long game at its last events offers the ruling only to a role that may.
    referee: Literal["player", "operator"] = "player"
    # The receipt's signature (docs/audit.md 8.4, as Accepted's) over seq..seq by the
    # game's receipt key `key_id`; "" if the server holds none for the game (or the store
    # went away): then the tree fields are 0, 0 and [].
    key_id: str = ""
    signature: str = ""
    leaf_index: int = 0
    tree_size: int = 0
    proof: list[str] = msgspec.field(default_factory=list)
    # The receipt's leaf's blind (docs/audit.md 8.4: 32 hex digits, hashed into its leaf;
    # "" for an unsigned receipt, or a leaf of a tree signed before blinds).
    blind: str = ""


class EventFrame(Struct, frozen=True, tag="event", kw_only=True):
    """One event of a game. `redacted` events were changed for this role. Every frame
    carries the envelope version, payload digest and commitment flag, so every role can
    check every link of the chain (docs/audit.md); a redacted event is committed, and its
    commitment opens once the seed is revealed."""

    game_id: str
    seq: int
    event_type: str
    version: int
    payload: Any
    command_id: str
    recorded_at: str
    prev_hash: str
    hash: str
    redacted: bool = False
    envelope_version: int = 1
    digest: str = ""
    committed: bool = False


class Accepted(Struct, frozen=True, tag="accepted", kw_only=True):
    """A command was appended (or, `duplicate`, had been appended before) at `seqs`, with a
    receipt (`head_seq`, `head_hash`, `state_hash`)."""

    game_id: str
    command_id: str
    seqs: list[int]
    duplicate: bool
    id: str | None = None
    # The receipt: the game's head when the reply was made (at or after the command's
    # last seq), and the state hash of the sender's view there (events.receipt).
    head_seq: int = 0
    head_hash: str = ""
    state_hash: str = ""
    # The receipt's signature (docs/audit.md 8.4) over seqs[0]..head_seq by the game's
    # receipt key `key_id`; "" if the server holds none for the game.
    key_id: str = ""
    signature: str = ""
    # The tree that signature covers (as Created's): leaf index, tree size, proof.
    leaf_index: int = 0
    tree_size: int = 0
    proof: list[str] = msgspec.field(default_factory=list)
    # The receipt's leaf's blind (docs/audit.md 8.4: 32 hex digits, hashed into its leaf;
    # "" for an unsigned receipt, or a leaf of a tree signed before blinds).
    blind: str = ""


class GameSummary(Struct, frozen=True, kw_only=True):
    """One game in a `games` reply."""

    game_id: str
    ruleset: str
    role: str
    seq: int


class GameList(Struct, frozen=True, tag="games", kw_only=True):
    """The games this connection may see."""

    games: list[GameSummary]
    id: str | None = None


class Revoked(Struct, frozen=True, tag="revoked", kw_only=True):
    """A credential was revoked (`existed` false: it was unknown or revoked already);
    `dropped` connections on this gateway held it and lost the game at once."""

    game_id: str
    existed: bool
    dropped: int
    id: str | None = None


class DisputeFiledReply(Struct, frozen=True, tag="dispute_filed", kw_only=True):
    """A dispute was filed as seq `dispute` (its id); `finding` is its `DisputeFound`
    payload, or null while it is `pending` reveal."""

    game_id: str
    dispute: int
    seq: int
    pending: bool
    finding: dict[str, Any] | None = None
    id: str | None = None


class Ruled(Struct, frozen=True, tag="ruled", kw_only=True):
    """A ruling was appended at `seq`."""

    game_id: str
    dispute: int
    ruling: str
    seq: int
    id: str | None = None


class Error(Struct, frozen=True, tag="error", kw_only=True):
    """A refused message: a stable code, a message for people, and details."""

    code: str
    message: str
    details: dict[str, Any] = {}
    id: str | None = None


ServerMessage = (
    Welcome
    | Created
    | Authenticated
    | Subscribed
    | Unsubscribed
    | ViewState
    | EventFrame
    | Accepted
    | GameList
    | Revoked
    | DisputeFiledReply
    | Ruled
    | Error
)

client_decoder = msgspec.json.Decoder(ClientMessage)
server_decoder = msgspec.json.Decoder(ServerMessage)
encoder = msgspec.json.Encoder()


def json_schema() -> dict[str, Any]:
    """JSON Schema of every message, both directions."""
    (client, server), components = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"umpire wire protocol v{PROTOCOL_VERSION}",
        "$defs": cleaned_descriptions(components),
        "properties": cleaned_descriptions(
            {"client_to_server": client, "server_to_client": server}
        ),
    }


def main() -> None:
    """Print the JSON Schema (used to regenerate docs/protocol.schema.json)."""
    json.dump(json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
