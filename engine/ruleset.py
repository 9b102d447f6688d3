"""The ruleset contract (the Decider), as every ruleset package provides it (docs/rulesets.md).

A ruleset is plain data plus pure functions:

- `initial_state(setup) -> state`
- `decide(state, command, dice) -> list[event]`: validates the command against the rules
  and the state, raises RuleError (citing the rule) when it is illegal, and returns the
  events it causes, including one DiceRolled for every roll it made, in order;
- `evolve(state, event) -> state`: total and deterministic; receives the ruleset's own
  events and DiceRolled;
- `view(state, role) -> data`: what a role may see;
- `redact(event, role) -> event | None`: what a role may see of one event (None hides it);
- `actions(state, role) -> list[Action]`: the commands the role may send now, each with
  its JSON Schema narrowed to what is legal (engine/actions.py builds them); a command
  whose type is not listed is refused. Without it, every command type is listed.
- `board(view) -> MapView | Diagram | None`: the declared map (grid layout and parity,
  terrain, targets, zones, the pieces on it now) or engagement diagram (altitude bands,
  aircraft, positions), read from a role's view; see engine/map_view.py.

Every AI decision event carries `rule` (seed file and rule number), the roll numbers of the
dice it used, and the candidates it considered with why each lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from msgspec import Struct

from umpire.engine.commands import TakebackPolicy
from umpire.engine.dice import Dice
from umpire.engine.map_view import Board
from umpire.engine.offers import Action
from umpire.engine.roles import Role

S = TypeVar("S", bound=Struct)


def _no_redaction(event: Struct, role: Role) -> Struct | None:
    return event


@dataclass(frozen=True, eq=False)  # one object per ruleset: hashed by identity, cheaply
class Ruleset(Generic[S]):
    """One solo system: its name, version, types and the pure Decider functions."""

    name: str
    version: str
    title: str
    seed: str
    setup_type: type[Struct]
    state_type: type[S]
    command_types: tuple[type[Struct], ...]
    event_types: tuple[type[Struct], ...]
    initial_state: Callable[[Any], S]
    decide: Callable[[S, Any, Dice], Sequence[Struct]]
    evolve: Callable[[S, Struct], S]
    view: Callable[[S, Role], Any]
    redact: Callable[[Struct, Role], Struct | None] = field(default=_no_redaction)
    # Names of state or event fields that must never reach a player or spectator before the
    # seed is revealed; the leak tests search every frame for them.
    secret_fields: tuple[str, ...] = ()
    # The package holding the ruleset's data files: `scenarios/` (the named scenarios,
    # engine/scenarios.py) and `rule_titles.json` (the seed's headings, engine/citations.py);
    # and the scenario `umpire new RULESET` starts when given no setup.
    data_package: str = ""
    default_scenario: str = ""
    # The seed's own title, as citations are shown to people ("Downtown solo rules 3.2.1").
    seed_title: str = ""
    # The legal actions of a role in a state (engine/actions.py); None lists every command
    # type unnarrowed. Never called for a spectator or after the game has ended.
    actions: Callable[[S, Role], Sequence[Action]] | None = None
    # Test openings: the commands (frozen command Structs, so the Ruleset stays hashable)
    # that a contract test may play first, in order, in a game of the default scenario,
    # each accepted with any dice, so that the ruleset's decisions are in the log
    # (tests/rulesets/test_openings.py plays them).
    openings: tuple[Struct, ...] = ()
    # The map or diagram clients draw (engine/map_view.py), built from a role's view data
    # only (what `view` returned, as builtins), so it shows nothing the view does not.
    board: Callable[[Any], Board | None] | None = None
    # What the ruleset allows of the universal `TakeBack` (engine/takeback.py): fewer
    # commands in a row, command types never taken back, its own revealing event types.
    takeback: TakebackPolicy = field(default_factory=TakebackPolicy)
