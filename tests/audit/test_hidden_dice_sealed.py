"""Issue #30 item 4, the attack through the dice: after a mid-game reveal, re-deriving the
hidden rolls from the revealed seed and re-running the rules on the public log must not
give away a secret still in play (Downtown's hidden AAA pool is drawn by hidden rolls).

Before the fix a hidden roll's faces came from its epoch's seed, so the seed a mid-game
reveal publishes gave every hidden roll of the epoch, and with them the secret. Now they
come from the game's hidden-dice key (engine/dice.py `roll_key`), derived from the sealing
key that GameCreated commits to and that only the final reveal publishes.

The proof is a differential: twin games with the same seed, the same commands and the same
revealed seed, differing only in their sealing key. Everything a player or spectator can
get (the revealed seed, every event as their role sees it, the view at every seq, what the
seed derives) is the same for both, while the secrets differ: so none of it determines
them. The rulesets come from their own declarations (`Ruleset.has_secrets`), every one
with hidden dice or secrets; those whose opening rolls no hidden die are skipped by name.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.dice import (
    DiceKind,
    DiceSpec,
    commitment,
    d6,
    derive_faces,
    hidden_dice_key,
    roll_key,
)
from umpire.engine.redaction import view_for
from umpire.engine.replay import decoded_log, seen_by
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import DiceRolled, GameCreated, SeedRevealed
from umpire.server.games import Games
from umpire.testing.support.forgery import Cli, ended_counter_game, read_lines, reseal, write_lines
from umpire.testing.support.short_games import opening
from umpire.testing.support.verifier import verifier_module, verify

DOC = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text()
SEED = bytes(range(32))
KEYS = [bytes([k]) * 32 for k in range(1, 9)]  # the twin's sealing key: the first that differs
LIMITED = (Role.PLAYER, Role.SPECTATOR)

SECRET_HOLDING = sorted(
    name for name in set(registry.available()) | {"counter"} if registry.get(name).has_secrets
)


async def _played(store: RedisEventStore, ruleset: str, game_id: str, key: bytes) -> Games:
    """`ruleset`'s opening on server dice (seed SEED, sealing key `key`), then a mid-game
    reveal (the next epoch's seed SEED too: the twins stay alike)."""
    games = Games(store, draw_seed=lambda: SEED, draw_key=lambda: key)
    setup, commands = opening(ruleset)
    await games.create(ruleset, setup, game_id=game_id)
    for n, command in enumerate(commands):
        await games.handle(game_id, f"c{n}", command)
    await games.reveal(game_id)
    return games


def _public(ruleset: str, events: list[Any], games_view: list[Any]) -> dict[str, Any]:
    """What a player and a spectator can get of a log: each event as their role sees it
    (the frames, `log`, `explain` and `replay` all show `seen_by`) and the view."""
    out: dict[str, Any] = {}
    rules = registry.get(ruleset)
    for role in LIMITED:
        out[f"events/{role.value}"] = [
            msgspec.to_builtins(seen_by(rules, events, seq, role))
            for seq in range(2, len(events) + 1)
        ]
        out[f"view/{role.value}"] = games_view[LIMITED.index(role)]
    created = events[0]
    assert isinstance(created, GameCreated)  # its game id and sealing commitment aside
    out["created"] = (created.setup, created.seed_commitment, created.client_entropy)
    return out


def _seed_derived(events: list[Any], seed: bytes) -> list[tuple[int, ...]]:
    """What an attacker derives for every hidden roll from the revealed seed (the waived
    game's client seed is "")."""
    return [
        derive_faces(seed, "", e.roll, DiceSpec(DiceKind(e.kind), tuple(e.sides)))
        for e in events
        if isinstance(e, DiceRolled) and e.hidden
    ]


def _hidden(events: list[Any]) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and e.hidden]


@pytest.mark.parametrize("ruleset", SECRET_HOLDING)
async def test_the_revealed_seed_and_the_public_log_do_not_give_a_secret(
    store: RedisEventStore, ruleset: str
) -> None:
    rules = registry.get(ruleset)
    games = await _played(store, ruleset, "twin-a", KEYS[0])
    a = decoded_log(await store.read("twin-a"), rules)
    if not _hidden(a):
        pytest.skip(f"{ruleset}'s opening rolls no hidden die (its secrets: the channels test)")
    reveal = a[-1]
    assert isinstance(reveal, SeedRevealed) and reveal.next_commitment
    assert bytes.fromhex(reveal.seed) == SEED
    # What the player and a spectator are shown of every hidden roll: no face.
    for role in LIMITED:
        for seq, event in enumerate(a, start=1):
            if isinstance(event, DiceRolled) and event.hidden:
                shown = seen_by(rules, a, seq, role)
                assert isinstance(shown, DiceRolled) and shown.faces == (), (role, seq)
    # The attack that worked before: derive every hidden roll from the revealed seed and
    # re-run the public rules on them. The rolled faces are the hidden-dice key's (from the
    # sealing key, still secret), so twins that differ only in that key roll their first
    # hidden roll (same number, same dice) differently while the seed gives each the same.
    for e in _hidden(a):
        spec = DiceSpec(DiceKind(e.kind), tuple(e.sides))
        assert e.faces == derive_faces(hidden_dice_key(KEYS[0]), "", e.roll, spec)
    twins = [a]
    for n, key in enumerate(KEYS[1:]):
        await _played(store, ruleset, f"twin-b{n}", key)
        twins.append(decoded_log(await store.read(f"twin-b{n}"), rules))
    first = [_hidden(t)[0] for t in twins]
    assert len({(e.roll, e.sides) for e in first}) == 1
    assert len({_seed_derived([e], SEED)[0] for e in first}) == 1
    assert len({e.faces for e in first}) > 1, "the sealing key does not change a hidden roll"
    # Not determined: a twin with the same seed, commands and revealed seed but another
    # sealing key whose record, as the player and a spectator get it, is the same (where
    # the hidden rolls have no public consequence: the first such key), holds another
    # secret. Where every hidden roll shows in public consequences (downtown's AAA
    # generation shows how many concentrations were bought), the check above stands.
    _, game_a = await games.load("twin-a")
    seen_a = _public(ruleset, a, _views(rules, game_a))
    for n, b in enumerate(twins[1:]):
        _, game_b = await games.load(f"twin-b{n}")
        if _public(ruleset, b, _views(rules, game_b)) != seen_a:
            continue
        assert b[-1] == reveal
        assert _seed_derived(a, SEED) == _seed_derived(b, SEED)
        if [e.faces for e in _hidden(b)] != [e.faces for e in _hidden(a)]:
            assert b != a  # another secret behind the same public record
            return


def _views(rules: Any, game: Any) -> list[Any]:
    return [msgspec.to_builtins(view_for(rules, game.state, r, revealed=False)) for r in LIMITED]


def test_which_key_a_roll_uses() -> None:
    """`roll_key`: a hidden roll of a game with a hidden-dice key takes it, every other
    roll (and every roll of an older game) its epoch's seed; HIDDEN_DICE is HMAC-keyed
    by the sealing key, never the seed."""
    hidden = hidden_dice_key(SEED)
    assert hidden == hmac.new(SEED, b"umpire-hidden-dice", hashlib.sha256).digest()
    assert roll_key(SEED, hidden, hidden=True) == hidden
    assert roll_key(SEED, hidden, hidden=False) == SEED
    assert roll_key(SEED, None, hidden=True) == SEED


def test_the_worked_example_of_section_3() -> None:
    """docs/audit.md section 3's hidden-roll numbers are what the code computes."""
    hidden = hidden_dice_key(SEED)
    values = [
        commitment(SEED),
        hidden.hex(),
        str(derive_faces(hidden, "alice", 0, d6())[0]),
        str(derive_faces(SEED, "alice", 0, d6())[0]),
    ]
    flat = " ".join(DOC.split())
    for value in values:
        assert value in flat, f"docs/audit.md does not state {value!r}"
    # The independent verifier, written from the document, derives the same face.
    verifier = verifier_module()
    key = verifier.roll_key(SEED, SEED, sealed_hidden=True)
    assert key == hidden
    assert verifier.server_faces(key, "alice", "", 0, "d6", [6]) == [int(values[2])]
    example = flat[flat.index("Worked example (hidden rolls)") :][:1200]
    assert f"face **{values[2]}**" in example and f"face {values[3]}" in example


def test_a_forged_hidden_roll_is_still_caught_at_the_end(cli: Cli, tmp_path: Path) -> None:
    """After the final reveal a forger holds the sealing key: they re-commit a hidden roll
    with other faces and re-hash the chain. Its faces no longer derive from the hidden-dice
    key, and every verifier says so at its seq."""
    game = ended_counter_game(cli)
    header, records = read_lines(cli.export(game))
    index = next(
        i for i, r in enumerate(records) if r["type"] == "DiceRolled" and r["payload"]["hidden"]
    )
    payload = records[index]["payload"]
    faces = payload["faces"]
    payload["faces"] = [1 + faces[0] % payload["sides"][0], *faces[1:]]
    payload["total"] = sum(payload["faces"])
    reseal(header, records, index)
    forged = write_lines(tmp_path / "forged.jsonl", header, records)
    code, out = verify(forged)
    assert code == 1 and out.startswith(f"FAILED at seq {index + 1}: server roll"), out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0 and f"seq {index + 1}" in audited.out + audited.err, audited.out
    # The real export verifies with every hidden roll recomputed from its key.
    code, out = verify(cli.export(game))
    server_rolls = sum(r["type"] == "DiceRolled" for r in records)
    assert code == 0 and f"{server_rolls} server rolls recomputed" in out, out


def test_a_sealing_key_that_is_not_the_committed_one_fails(cli: Cli, tmp_path: Path) -> None:
    """The sealing key is committed at creation (GameCreated.sealing_commitment), so the
    server cannot choose it, and the hidden rolls with it, after the client seed is bound:
    a final reveal publishing another key fails in every verifier."""
    game = ended_counter_game(cli)
    header, records = read_lines(cli.export(game))
    created = records[0]["payload"]
    assert (
        created["sealing_commitment"]
        == hashlib.sha256(bytes.fromhex(records[-1]["payload"]["sealing_key"])).hexdigest()
    )
    records[-1]["payload"]["sealing_key"] = (b"\x09" * 32).hex()
    reseal(header, records, len(records) - 1)
    forged = write_lines(tmp_path / "key.jsonl", header, records)
    code, out = verify(forged)
    assert code == 1 and out.startswith(f"FAILED at seq {len(records)}: the sealing key"), out
    audited = cli("audit", "--file", str(forged))
    assert audited.code != 0, audited.out


def test_a_player_export_after_a_mid_game_reveal_holds_no_sealed_payload(
    cli: Cli, tmp_path: Path
) -> None:
    """An export straight after a mid-game reveal would have held every sealed payload
    (issue #30 item 4): it is refused, and writes no file, while a commitment is shut."""
    setup, commands = opening("downtown")
    game = cli.new("downtown", setup)
    for command in commands:
        cli.send(game, command)
    assert cli("reveal", game).code == 0
    path = tmp_path / "player.jsonl"
    refused = cli("export", game, "-o", str(path))
    assert refused.code != 0 and "export_refused" in refused.err, refused.err
    assert "sealed events" in refused.err
    assert not path.exists()
    assert cli("export", game).out == ""
    # The operator's copy (to move the game) still holds them, as before.
    operator = cli.export(game, "--operator")
    _, records = read_lines(operator)
    assert any(r["committed"] for r in records)
    assert json.loads(operator.read_text().splitlines()[0])["operator_sealing_key"]


def test_an_operator_export_with_another_sealing_key_is_not_imported(cli: Cli) -> None:
    """The sealing key moves with an operator export; one that is not the key GameCreated
    commits to would let the new server re-draw the hidden rolls: refused, nothing written."""
    game = cli.new("counter", {"target": 1000})
    cli.send(game, {"type": "Hide"})
    path = cli.export(game, "--operator")
    header, records = read_lines(path)
    header["operator_sealing_key"] = (b"\x07" * 32).hex()
    forged = write_lines(cli.tmp / "other-key.jsonl", header, records)
    cli.use_prefix(cli.prefix + "b")
    refused = cli("import", str(forged))
    assert refused.code == 2 and "sealing_commitment" in refused.err, refused.err
    assert cli("games").out.count(game) == 0
    assert cli("import", str(path)).code == 0  # the real key is taken
