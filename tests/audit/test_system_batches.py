"""The system batches as data (docs/audit.md (6), SYSTEM_BATCHES.md): each is accepted
where it may stand, by tag and command id, and refused with a reason everywhere else.
ClientSeedBound and a rotating SeedRevealed are accepted by tag, so the grammar holds for
logs of the seed-epoch design before their event types exist in this build."""

from __future__ import annotations

import pytest

from umpire.engine.audit_grammar import GrammarError, Position, system_batch


def test_creation_stands_at_seq_1_under_any_id() -> None:
    assert system_batch("GameCreated", "umpire:create", Position(seq=1)).name == "creation"
    assert system_batch("GameCreated", "client-create-7", Position(seq=1)).name == "creation"
    with pytest.raises(GrammarError, match="only at seq 1"):
        system_batch("GameCreated", "umpire:create", Position(seq=5))


def test_the_first_reveal_is_umpire_reveal_and_later_ones_name_their_epoch() -> None:
    assert system_batch("SeedRevealed", "umpire:reveal", Position(seq=9)).name == "reveal"
    rotation = system_batch("SeedRevealed", "umpire:reveal:2", Position(seq=20, epoch=2))
    assert rotation.name == "rotation"
    with pytest.raises(GrammarError, match="names epoch 1, but the log is in seed epoch 2"):
        system_batch("SeedRevealed", "umpire:reveal:1", Position(seq=20, epoch=2))
    with pytest.raises(GrammarError, match="is not 'umpire:reveal'"):
        system_batch("SeedRevealed", "my-reveal", Position(seq=9))
    with pytest.raises(GrammarError, match="names epoch 0, but the log is in seed epoch 1"):
        system_batch("SeedRevealed", "umpire:reveal", Position(seq=9, epoch=1))


def test_client_entropy_is_bound_once_per_epoch_before_its_first_roll() -> None:
    bind = system_batch("ClientSeedBound", "umpire:bind:0", Position(seq=2))
    assert bind.name == "client entropy"
    assert system_batch("ClientSeedBound", "umpire:bind:1", Position(seq=30, epoch=1)) == bind
    with pytest.raises(GrammarError, match="epoch 0 has had one already"):
        system_batch("ClientSeedBound", "umpire:bind:0", Position(seq=3, bound_epochs={0}))
    with pytest.raises(GrammarError, match="after 2 rolls of epoch 1"):
        system_batch("ClientSeedBound", "umpire:bind:1", Position(seq=30, epoch=1, epoch_rolls=2))
    with pytest.raises(GrammarError, match="names epoch 3"):
        system_batch("ClientSeedBound", "umpire:bind:3", Position(seq=30, epoch=1))


def test_any_other_event_outside_a_command_is_one_no_command_produced() -> None:
    for tag in ("DiceRolled", "GameEnded", "counter.Added", "CommandRecorded"):
        with pytest.raises(GrammarError, match="no command produced it"):
            system_batch(tag, "forged", Position(seq=4))
