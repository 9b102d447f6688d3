"""A receipt's state hash from a kept view (server/view_digests.py) is the one
`receipt_state_hash` makes of the role's view at that head (docs/audit.md 8.1), whatever
roles, games and reveals came before it: a view kept for one role, game or state never
stands for another's."""

from __future__ import annotations

import msgspec
import pytest

from tests.support.golden_logs import load, start
from umpire.engine.game import Game, apply, codec_for
from umpire.engine.redaction import view_for
from umpire.engine.registry import get
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.receipt import receipt_hash_of_json, receipt_state_hash
from umpire.server import view_digests
from umpire.server.view_digests import ViewDigests

HEAD = "ab" * 32
# The player's view first, then the referee's (who sees the DRV's secrets), then the
# player's again: a view kept by anything but the role would answer the referee's.
ORDER = (Role.PLAYER, Role.REFEREE, Role.SPECTATOR, Role.PLAYER, Role.REFEREE)


def _fresh(ruleset: Ruleset[object], game: Game, role: Role) -> str:
    revealed = game.meta.revealed_seed is not None
    view = view_for(ruleset, game.state, role, revealed=revealed)
    return receipt_state_hash(game.meta.seq, game.meta.last_hash, view)


def _at(game: Game, seq: int, game_id: str | None = None, revealed: bool = False) -> Game:
    meta = msgspec.structs.replace(
        game.meta,
        seq=seq,
        last_hash=f"{seq:064x}",
        game_id=game_id or game.meta.game_id,
        revealed_seed="00" * 32 if revealed else None,
    )
    return Game(meta, game.state)


def _downtown_games() -> tuple[Ruleset[object], list[Game]]:
    """Every game state of the recorded Downtown game (tests/data/golden), each at its seq."""
    data = load("downtown")
    ruleset = get("downtown")
    codec = codec_for(ruleset)
    game = start(ruleset, data["setup"])
    games = [_at(game, 1)]
    for seq, (tag, version, payload) in enumerate(data["events"], start=2):
        game = apply(ruleset, game, codec.decode(tag, version, bytes.fromhex(payload)))
        games.append(_at(game, seq))
    return ruleset, games


def test_each_role_gets_its_own_views_hash_at_every_state_of_a_recorded_game() -> None:
    ruleset, games = _downtown_games()
    digests = ViewDigests()
    secret_kept = False
    for game in games:
        for role in ORDER:
            assert digests.state_hash(ruleset, game, role) == _fresh(ruleset, game, role)
        secret_kept |= _fresh(ruleset, game, Role.PLAYER) != _fresh(ruleset, game, Role.REFEREE)
    assert secret_kept  # the recorded game holds a secret the player's view leaves out


def test_an_unchanged_state_at_a_new_head_hashes_the_new_head() -> None:
    ruleset, games = _downtown_games()
    digests = ViewDigests()
    game = games[-1]
    for seq in range(game.meta.seq, game.meta.seq + 3):  # RollDice: the state object stays
        moved = _at(game, seq)
        assert digests.state_hash(ruleset, moved, Role.PLAYER) == _fresh(
            ruleset, moved, Role.PLAYER
        )
    assert len(digests) == 1


def test_twin_games_and_a_reveal_each_get_their_own_view() -> None:
    ruleset, games = _downtown_games()
    digests = ViewDigests()
    early, late = games[3], games[-1]
    # Two games with one id each, their states different; then the same id with another
    # state; then the final reveal, which shows the player everything (the referee's view).
    sequence = [
        _at(early, 9, "g-twin-a"),
        _at(late, 9, "g-twin-b"),
        _at(late, 10, "g-twin-a"),
        _at(early, 11, "g-twin-b"),
        _at(early, 12, "g-twin-b", revealed=True),
        _at(early, 13, "g-twin-b"),
    ]
    for game in sequence:
        for role in ORDER:
            assert digests.state_hash(ruleset, game, role) == _fresh(ruleset, game, role)


def test_the_views_kept_are_bounded() -> None:
    ruleset, games = _downtown_games()
    digests = ViewDigests(size=2)
    for n, game in enumerate(games[:6]):
        twin = _at(game, game.meta.seq, f"g-bound-{n}")
        assert digests.state_hash(ruleset, twin, Role.PLAYER) == _fresh(ruleset, twin, Role.PLAYER)
        assert len(digests) <= 2


def test_the_same_head_asked_again_is_hashed_once_and_another_head_hash_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An `accepted` signed early asks for its head's hash, then its reply asks again
    (server/receipt_batch.py): the second is the first's; a head with the same seq and
    another hash (a log cut and written again) is hashed anew."""
    ruleset, games = _downtown_games()
    digests = ViewDigests()
    made: list[int] = []

    def counted(seq: int, head: str, body: bytes) -> str:
        made.append(seq)
        return receipt_hash_of_json(seq, head, body)

    monkeypatch.setattr(view_digests, "receipt_hash_of_json", counted)
    game = games[-1]
    first = digests.state_hash(ruleset, game, Role.PLAYER)
    assert digests.state_hash(ruleset, game, Role.PLAYER) == first
    assert made == [game.meta.seq]
    other = Game(msgspec.structs.replace(game.meta, last_hash="cd" * 32), game.state)
    assert digests.state_hash(ruleset, other, Role.PLAYER) == _fresh(ruleset, other, Role.PLAYER)
    assert digests.state_hash(ruleset, other, Role.PLAYER) != first
    assert made == [game.meta.seq] * 2
