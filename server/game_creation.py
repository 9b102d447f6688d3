"""How a game is created on the store (server/games.py `Games`): its first event, its seed and
sealing key, and a re-sent create that finds the game it made before."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from umpire.engine import registry, scenarios
from umpire.engine.dice import commitment
from umpire.engine.disputes import REFEREES
from umpire.engine.errors import ClientSeedRefused, InvalidCommand
from umpire.engine.game import (
    Game,
    codec_for,
    parse_setup,
    ruleset_of,
)
from umpire.engine.game import start as start_game
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import canonical_bytes
from umpire.events.envelope import GENESIS_HASH, check_command_id, check_game_id
from umpire.events.errors import GameExists
from umpire.events.recorder import seal_batch
from umpire.events.store import Store
from umpire.events.types import ClientEntropy, GameCreated
from umpire.server.clock import utc_now_iso
from umpire.server.game_records import (
    Created,
    sealed_pending,
)
from umpire.server.receipt_keys import ReceiptKeys


class GameCreation:
    """Games' `create`: a new game's GameCreated, secret seed and sealing key."""

    __slots__ = ()

    # Set by Games.__init__ (server/games.py).
    store: Store
    draw_seed: Callable[[], bytes]
    draw_key: Callable[[], bytes]
    receipt_keys: ReceiptKeys
    _keys: dict[str, bytes | None]
    _secrets: dict[str, bytes]

    if TYPE_CHECKING:  # Games' own (server/games.py) and GameCache's (server/game_cache.py)

        def _refuse_if_full(self) -> None: ...
        def _remember(self, game_id: str, ruleset: Ruleset[Any], game: Game) -> None: ...

    async def create(
        self,
        ruleset_name: str,
        setup: dict[str, Any] | None = None,
        *,
        client_entropy: ClientEntropy | str = ClientEntropy.WAIVED,
        client_seed: str | None = None,
        game_id: str | None = None,
        command_id: str | None = None,
        scenario: str | None = None,
        opponent_manual_dice: bool = False,
        referee: str = "player",
    ) -> Created:
        """Create a game: draw its secret seed and log its commitment (GameCreated).

        With `client_entropy` "bind" (what the clients use) no server roll happens until
        the client has bound its seed with `bind_client_seed`, after seeing the
        commitment. The default "waived" lets the server's seed alone derive the dice (for
        tests, benches and tools that create and roll at once): the waiver is logged in
        GameCreated and shown by `log` and `audit`. A `client_seed` is refused here: taken
        before the commitment is published, it would let a server grind its seed.

        With `scenario`, the game starts from that shipped scenario's setup, with `setup`'s
        top-level fields laid over it (engine/scenarios.py). `opponent_manual_dice` lets the
        player enter physical dice for the opponent's rolls (recorded in GameCreated; without
        it such dice are refused). `referee` names who rules on its disputes: "player" (the
        player, or the operator) or "operator" (the operator alone).
        """
        self._refuse_if_full()
        if referee not in REFEREES:
            raise InvalidCommand(
                f"referee must be one of {', '.join(REFEREES)}, not {referee!r}: who rules "
                "on the game's disputes; nothing was created"
            )
        if client_seed is not None:
            raise ClientSeedRefused(
                "a client seed is not taken with create: create the game, read its seed "
                "commitment from the reply, then bind your seed (the `bind_seed` message, "
                "Games.bind_client_seed); taken before the commitment is published, it "
                "would let the server choose a seed that suits it"
            )
        try:
            entropy = ClientEntropy(client_entropy)
        except ValueError:
            raise InvalidCommand(
                f"client_entropy must be 'bind' or 'waived', not {client_entropy!r}"
            ) from None
        ruleset = registry.get(ruleset_name)
        setup = scenarios.resolve(ruleset, setup, scenario)
        scenarios.validate_setup(ruleset, setup)  # names the field and what is allowed
        parsed = parse_setup(ruleset, setup)
        game_id = check_game_id(game_id or "g" + secrets.token_hex(8))
        seed = self.draw_seed()
        key = self.draw_key()
        if len(seed) != 32 or len(key) != 32:
            raise ValueError("a dice seed and a sealing key must be 32 bytes each")
        # The key that signs this game's receipts for good (docs/audit.md 8.4).
        signer = await self.receipt_keys.current()
        created = GameCreated(
            game_id=game_id,
            ruleset=ruleset.name,
            ruleset_version=ruleset.version,
            setup=msgspec.to_builtins(parsed),
            seed_commitment=commitment(seed),
            client_entropy=entropy,
            opponent_manual_dice=opponent_manual_dice,
            sealing_commitment=commitment(key),
            receipt_key_id=signer.key_id,
            receipt_key=signer.public_key,
            referee=referee,
        )
        ruleset.initial_state(parsed)  # a setup the ruleset cannot start from fails here
        codec = codec_for(ruleset)
        tag, version, payload = codec.encode(created)
        batch = seal_batch(
            game_id,
            sealed_pending(ruleset, game_id, 1, [(created, (tag, version, payload))], key),
            expected_version=0,
            prev_hash=GENESIS_HASH,
            command_id=check_command_id(command_id or "umpire:create"),
            recorded_at=utc_now_iso(),
            commit_seed=seed,
            secret=seed + key,  # the store keeps the sealing key after the seed
        )
        result = await self.store.append(batch)
        if result.duplicate:
            # Created before under this game id and command id (a re-sent create): answer
            # with that game, as it was created, if this request asks for the same one.
            return await self._created_before(game_id, created)
        # The creating gateway is where the game's first commands usually come: start
        # with it cached, so the first command costs one round trip like every other.
        game = start_game(ruleset, created)
        meta = msgspec.structs.replace(game.meta, seq=result.last_seq, last_hash=result.last_hash)
        self._remember(game_id, ruleset, Game(meta, game.state))
        self._secrets[game_id] = seed
        self._keys[game_id] = key
        self.receipt_keys.created_with(game_id, signer)
        return Created(
            game_id, ruleset.name, created.seed_commitment, "", result.last_seq,
            client_entropy=entropy,
        )  # fmt: skip

    async def _created_before(self, game_id: str, asked: GameCreated) -> Created:
        first = await self.store.read(game_id, 1, 1)
        stored = codec_for(ruleset_of(first[0])).decode(
            first[0].type, first[0].version, first[0].payload, seq=first[0].seq
        )
        if (
            not isinstance(stored, GameCreated)
            or stored.ruleset != asked.ruleset
            # Canonical bytes, not ==: the stored setup decodes with lists where the
            # parsed one holds tuples, and every real ruleset's setup has a list.
            or canonical_bytes(stored.setup) != canonical_bytes(asked.setup)
            or stored.client_entropy != asked.client_entropy
            or stored.opponent_manual_dice != asked.opponent_manual_dice
            or stored.referee != asked.referee
        ):
            raise GameExists(
                f"game {game_id!r} was already created with another ruleset, setup or "
                "client entropy: a create_id (or game id) names one game; use a new one",
                game_id=game_id,
            )
        # A re-send mints a player credential, so it is honoured only while the game is
        # as its create left it: once a seed is bound or a command recorded, the first
        # answer arrived, and the create_id must not stay a standing key to the game (an
        # operator's revocation would not hold against it).
        if (version := await self.store.version(game_id)) > first[0].seq:
            raise GameExists(
                f"game {game_id!r} is in play (its log is at seq {version}): a create is "
                "answered again only until the game's first command or seed binding; use "
                "the credentials of its first answer",
                game_id=game_id,
            )
        return Created(
            game_id,
            stored.ruleset,
            stored.seed_commitment,
            stored.client_seed,
            first[0].seq,
            duplicate=True,
            client_entropy=stored.client_entropy,
        )
