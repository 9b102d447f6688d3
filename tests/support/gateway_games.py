"""`Games` over the websocket gateway: the same interface the ruleset tests drive, but every
creation and command travels as JSON frames through a real gateway, and every error frame
comes back as the typed error the direct path raises.

Reading (`load`, `store`) and the operator's `reveal` go straight to the store, as a
referee's tools would.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from umpire.clients import UmpireClient
from umpire.clients import UmpireError as ErrorFrame
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.types import ClientEntropy
from umpire.server.credentials import Unauthorized
from umpire.server.game_records import CommandResult, Created
from umpire.server.games import Games
from umpire.testing.support.nonces import nonce_of

# Error classes live in events.errors, engine.errors and server.credentials; importing one
# class from each of the latter makes sure every subclass exists before the walk.
LOADED = (RuleError, Unauthorized)


def _error_types() -> dict[str, type[UmpireError]]:
    def walk(cls: type[UmpireError]) -> Iterator[type[UmpireError]]:
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    return {cls.code: cls for cls in walk(UmpireError)}


def as_typed(frame: ErrorFrame) -> UmpireError:
    """The typed error an error frame stands for (same class, message and details)."""
    cls = _error_types().get(frame.code, UmpireError)
    details = dict(frame.details or {})
    try:
        if cls is RuleError:
            rule = str(details.pop("rule", ""))
            return RuleError(frame.message, rule=rule, **details)
        return cls(frame.message, **details)
    except TypeError:
        error = UmpireError(frame.message, **details)
        error.code = frame.code
        return error


class GatewayGames:
    """Drop-in for `umpire.server.games.Games` in tests, sending everything through a gateway."""

    def __init__(self, client: UmpireClient, direct: Games) -> None:
        self.client = client
        self.direct = direct
        self.store = direct.store

    async def create(
        self,
        ruleset_name: str,
        setup: dict[str, Any] | None = None,
        *,
        client_entropy: str = "waived",
        client_seed: str | None = None,
        game_id: str | None = None,
        command_id: str | None = None,
        scenario: str | None = None,
        opponent_manual_dice: bool = False,
    ) -> Created:
        if game_id is not None or client_seed is not None:
            # The protocol lets the server choose game ids; a test that needs a fixed id
            # (to check that nothing was created under it) uses the direct path, and so
            # does one that offers a client seed too early (refused).
            return await self.direct.create(
                ruleset_name,
                setup,
                client_entropy=client_entropy,
                client_seed=client_seed,
                game_id=game_id,
                scenario=scenario,
                opponent_manual_dice=opponent_manual_dice,
            )
        # The same default as Games.create (a recorded waiver), so both paths play the same
        # game; a test that binds a seed creates with "bind" and calls bind_client_seed.
        message = {"type": "create", "ruleset": ruleset_name, "setup": setup or {},
                   "client_entropy": client_entropy}  # fmt: skip
        if scenario is not None:
            message["scenario"] = scenario
        if opponent_manual_dice:
            message["opponent_manual_dice"] = True
        try:
            created = await self.client.request(message)
        except ErrorFrame as frame:
            raise as_typed(frame) from None
        self.client.credentials.append(created.player_credential)
        return Created(
            created.game_id, created.ruleset, created.seed_commitment, created.client_seed, 1,
            client_entropy=ClientEntropy(created.client_entropy),
        )  # fmt: skip

    async def bind_client_seed(self, game_id: str, client_seed: str) -> CommandResult:
        try:
            accepted = await self.client.bind_seed(game_id, client_seed)
        except ErrorFrame as frame:
            raise as_typed(frame) from None
        return CommandResult(
            game_id, accepted.command_id, accepted.seqs[0], accepted.seqs[-1], accepted.duplicate
        )

    async def handle(
        self,
        game_id: str,
        command_id: str,
        command: dict[str, Any],
        *,
        manual_dice: Sequence[Sequence[int]] | None = None,
        expected_seq: int | None = None,
        role: Role = Role.PLAYER,
    ) -> CommandResult:
        dice = [list(d) for d in manual_dice] if manual_dice is not None else None
        try:
            accepted = await self.client.send(
                game_id,
                msgspec.to_builtins(command),
                dice=dice,
                command_id=command_id,
                expected_seq=expected_seq,
                nonce=nonce_of(command_id),  # the direct path's (umpire.testing.support.nonces)
            )
        except ErrorFrame as frame:
            raise as_typed(frame) from None
        return CommandResult(
            game_id, command_id, accepted.seqs[0], accepted.seqs[-1], accepted.duplicate
        )

    async def load(self, game_id: str) -> Any:
        return await self.direct.load(game_id)

    async def reveal(self, game_id: str) -> CommandResult:
        return await self.direct.reveal(game_id)


async def create_bound(
    games: Games | GatewayGames,
    ruleset_name: str,
    setup: dict[str, Any] | None,
    client_seed: str,
    *,
    scenario: str | None = None,
    opponent_manual_dice: bool = False,
) -> Created:
    """Create a game as the clients do: the commitment first (seq 1), then the client's
    seed bound to it (seq 2), so a scripted game plays the same dice on every run."""
    created = await games.create(
        ruleset_name,
        setup,
        client_entropy="bind",
        scenario=scenario,
        opponent_manual_dice=opponent_manual_dice,
    )
    await games.bind_client_seed(created.game_id, client_seed)
    return msgspec.structs.replace(created, client_seed=client_seed, seq=2)
