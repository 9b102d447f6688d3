"""Command nonces for tests: what a client sends with each command (docs/security.md), made
deterministic so that a test's server dice roll the same on every run and on both paths of
the ruleset tests (straight to the store, and through a gateway)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from umpire.events.types import CommandRecorded, DiceRolled
from umpire.server.games import CommandResult, Games


def nonce_of(command_id: str) -> str:
    """The test nonce of a command id: 32 hex digits, the same on every run."""
    return hashlib.sha256(b"umpire-test-nonce:" + command_id.encode()).hexdigest()[:32]


class NoncedGames(Games):
    """`Games` whose commands carry a nonce as the clients' do (`nonce_of` their id), unless
    the test gives one (`""`: none, to see a command without one refused) or physical dice."""

    async def handle(
        self,
        game_id: str,
        command_id: str,
        command: dict[str, Any],
        *,
        manual_dice: Sequence[Sequence[int]] | None = None,
        nonce: str | None = None,
        **options: Any,
    ) -> CommandResult:
        if nonce is None and manual_dice is None:
            nonce = nonce_of(command_id)
        return await super().handle(
            game_id, command_id, command, manual_dice=manual_dice, nonce=nonce, **options
        )


def roll_nonces(events: Sequence[Any]) -> dict[int, str]:
    """Each roll's number -> the nonce of the command whose batch holds it ("" for none),
    from a log's decoded events."""
    nonces: dict[int, str] = {}
    nonce = ""
    for event in events:
        if isinstance(event, CommandRecorded):
            nonce = event.entropy
        elif isinstance(event, DiceRolled):
            nonces[event.roll] = nonce
    return nonces
