"""7.3 Destroyed Units and CAP Track Adjustments: a Unit goes to the CAP track; a destroyed
AI removes the next Blue Command card drawn (never the last one) and the deck is
reshuffled; every draw recomputable from the revealed seed (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import msgspec
import pytest

from tests.rulesets.conflict_of_heroes.setups import (
    ai,
    card,
    every,
    one,
    rolls,
    run,
    state,
    unit,
)
from umpire.engine.dice import ServerDice, derive_faces, draw
from umpire.engine.errors import RuleError
from umpire.engine.handling import parse_command
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.events import (
    CommandCardKept,
    CommandCardRemoved,
    DeckReshuffled,
    OrderCardDrawn,
    UnitDestroyed,
)

DECK = (card(1, "green", 3), card(2, "green", 4), card(3, "blue", 5), card(4, "blue", 6))
UNITS = [ai("A", "0505"), ai("B", "0305"), unit("U", "0508"), unit("V", "0308")]


def test_destroyed_unit_goes_to_the_cap_track() -> None:
    """7.3: 'A destroyed Unit is removed from the game and is placed on the Player's CAPs
    track (7.4 AtB)': one CAP less each round from now on."""
    events, s = run(state(UNITS, DECK), {"type": "ReportDestroyed", "unit": "U"})
    gone = one(events, UnitDestroyed)
    assert (gone.side, gone.caps_per_round) == ("player", 2)
    assert s.unit("U").destroyed and s.destroyed_player_units == 1 and s.caps == 2  # type: ignore[union-attr]
    assert every(events, OrderCardDrawn) == []


def test_destroyed_ai_removes_the_next_blue_card_then_reshuffles() -> None:
    """7.3: draw and discard until a blue Command Order card is drawn; remove it; add all
    discarded cards and reshuffle."""
    events, s = run(state(UNITS, DECK), {"type": "ReportDestroyed", "unit": "A"}, [[1], [2]])
    assert [d.card for d in every(events, OrderCardDrawn)] == [1, 3]
    assert one(events, CommandCardRemoved).card == 3
    assert one(events, DeckReshuffled).cards == (1,)
    assert (s.deck, s.discards, s.removed) == ((1, 2, 4), (), (3,))
    assert s.unit("A").destroyed  # type: ignore[union-attr]


def test_the_last_command_card_is_never_removed() -> None:
    """7.3: 'If there is only one Command Order card left in the deck, do not remove it.'"""
    s = msgspec.structs.replace(state(UNITS, DECK), deck=(1, 2, 4), removed=(3,))
    events, s = run(s, {"type": "ReportDestroyed", "unit": "A"})
    assert one(events, CommandCardKept).card == 4
    assert every(events, OrderCardDrawn) == [] and s.removed == (3,) and 4 in s.deck


def test_discarded_command_cards_count_and_an_empty_pile_is_reshuffled() -> None:
    """7.3 with the blue cards in the discards: they are still in the deck; when the draw
    pile runs out the discards are reshuffled and the search goes on."""
    s = msgspec.structs.replace(state(UNITS, DECK), deck=(1,), discards=(2, 3, 4))
    events, s = run(s, {"type": "ReportDestroyed", "unit": "B"}, [[1], [3]])
    drawn = [d.card for d in every(events, OrderCardDrawn)]
    assert drawn == [1, 3] and one(events, CommandCardRemoved).card == 3
    assert [r.cards for r in every(events, DeckReshuffled)] == [(1, 2, 3, 4)]
    assert s.removed == (3,) and s.deck == (1, 2, 4)


def test_every_draw_is_recomputable_from_the_revealed_seed() -> None:
    """Card draws: a draw is draw(n), face k = k-th remaining card in ascending order; with
    the seed revealed, anyone recomputes the faces (derive_faces) and so the cards."""
    seed, client = bytes(range(32)), "coh-audit"
    s = state(UNITS, DECK)
    dice = ServerDice(seed, client, 0)
    events = list(
        RULESET.decide(s, parse_command(RULESET, {"type": "ReportDestroyed", "unit": "A"}), dice)
    )
    remaining = sorted(s.deck)
    draws = every(events, OrderCardDrawn)
    assert draws and len(rolls(events)) == len(draws)
    for rolled, drawn in zip(rolls(events), draws, strict=True):
        faces = derive_faces(seed, client, rolled.roll, draw(len(remaining)))
        assert faces == rolled.faces and remaining[faces[0] - 1] == drawn.card
        remaining.remove(drawn.card)
    assert drawn.card in (3, 4)  # the search stops at a blue card


def test_physical_deck_card_not_in_the_deck_is_refused() -> None:
    """Physical-deck mode: a named card must be in the deck (here card 3 was removed)."""
    s = msgspec.structs.replace(state(UNITS, DECK), deck=(1, 2, 4), removed=(3,))
    with pytest.raises(RuleError, match="Order Card 3 is not in the deck") as info:
        run(s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 2, "cards": [3]})
    assert "3.1.1" in info.value.rule
    events, s2 = run(
        s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 2, "cards": [4]}
    )
    assert one(events, OrderCardDrawn).by_player and s2.discards == (4,)
    with pytest.raises(RuleError, match="were named but this command drew only 1"):
        run(s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 2, "cards": [4, 1]})


def test_a_destroyed_counter_cannot_be_destroyed_or_act_again() -> None:
    """7.3: a destroyed counter is removed from the game."""
    _, s = run(state(UNITS, DECK), {"type": "ReportDestroyed", "unit": "U"})
    with pytest.raises(RuleError, match="destroyed"):
        run(s, {"type": "ReportDestroyed", "unit": "U"})
    with pytest.raises(RuleError, match="not in play"):
        run(s, {"type": "UnitAction", "units": ["U"], "action": "fire", "ap": 1}, [[1]])


def test_the_reshuffle_takes_older_discards_too() -> None:
    """README ledger 7.3: "add all discarded cards and re-shuffle the deck": card 2, discarded
    before the AI was destroyed, goes back with card 1 drawn in the search."""
    s = msgspec.structs.replace(state(UNITS, DECK), deck=(1, 3, 4), discards=(2,))
    events, s = run(s, {"type": "ReportDestroyed", "unit": "A"}, [[1], [1]])
    assert [d.card for d in every(events, OrderCardDrawn)] == [1, 3]
    assert one(events, DeckReshuffled).cards == (1, 2)
    assert (s.deck, s.discards, s.removed) == ((1, 2, 4), (), (3,))
