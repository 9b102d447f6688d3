"""The ruleset contract (the Decider), as every ruleset package provides it (docs/rulesets.md).

A ruleset is plain data plus pure functions:

- `initial_state(setup) -> state` (a new game's; `opened_under(version, state)`, where
  given, the opening of a game recorded under an older version)
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

Derived, not filled in: `command_types` from a kit-made `decide` (engine/kit/decider.py,
its dispatch's command types), `redact` and the secret state left out of `view` from
`secrets` (engine/secret_fields.py), `secret_paths` and `secret_fields` from `secrets`,
and `data_package` from the package that defines `state_type`.

Every AI decision event carries `rule` (seed file and rule number), the roll numbers of the
dice it used, and the candidates it considered with why each lost.

`Ruleset.testing` (a `Testing`) is what umpire's cross-ruleset tests (`umpire.testing`,
docs/rulesets.md "Tests") need to know of a ruleset that its other declarations do not
say; whether it has secrets, and hidden dice, follows from its redaction declarations
(`has_secrets`, `has_hidden_dice`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import Struct

from umpire.engine.commands import TakebackPolicy
from umpire.engine.dice import Dice
from umpire.engine.kit.labels import NO_LABELS, Labels
from umpire.engine.kit.reading import Reading
from umpire.engine.map_view import Board
from umpire.engine.offers import Action
from umpire.engine.roles import Role
from umpire.engine.secret_fields import NO_SECRETS, Redactions

S = TypeVar("S", bound=Struct)


def _no_redaction(event: Struct, role: Role) -> Struct | None:
    return event


class Testing(Struct, frozen=True, kw_only=True):
    """A ruleset's test profile: what the cross-ruleset tests (`umpire.testing`) need to
    know of it beyond its other declarations. Every field has a default that suits a
    ruleset whose games start from the default scenario and whose hidden values stay
    hidden until the reveal."""

    # The set-up driven test games start from (a `setup_type` value); None: the default
    # scenario's, else the setup type's defaults (as `umpire new` starts a game).
    setup: Struct | None = None
    # Accepted commands after which the contract's random play ends, by the listed
    # `EndGame`, a game that the rules have not ended yet.
    end_after: int = 200
    # Tags of events at which twin games that differ only in a secret may part publicly,
    # because a rule publishes the result (a bomber's counter moves to the hex its hidden
    # roll located; a pilot's quality shows when it is used): the twin differential stops
    # comparing at the first such pair, and fails at any other public difference.
    published: tuple[str, ...] = ()
    # Fields of secret events that a rule publishes although a hidden value decides them
    # (how many counters were bought face down), by event tag.
    published_fields: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    # Tags of events that record a claim a hidden value voided, each with why: the
    # command was accepted because some value of the secret allows it (issue 42 item 5),
    # and the true one did not, so the state rightly stays as it was.
    voids_on_hidden: dict[str, str] = msgspec.field(default_factory=dict)


def secret_declarations(ruleset: Ruleset[Any]) -> tuple[list[type[Struct]], list[str]]:
    """What a ruleset declares secret: the event types its `Redactions` cover, and its
    declarations named for people (those event types, a `redact` of its own, the secret
    state fields). The one place `has_secrets` and `has_hidden_dice` are derived from."""
    owner = getattr(ruleset.redact, "__self__", None)
    types: list[type[Struct]] = []
    named: list[str] = []
    if isinstance(owner, Redactions):
        types = sorted(owner.declarations, key=lambda t: t.__struct_config__.tag or "")
        named += [str(t.__struct_config__.tag) for t in types]
    elif ruleset.redact is not _no_redaction:
        named.append(f"redact={getattr(ruleset.redact, '__qualname__', ruleset.redact)}")
    named += [f"secret field {name!r}" for name in ruleset.secret_fields]
    return types, named


@dataclass(frozen=True, eq=False)  # one object per ruleset: hashed by identity, cheaply
class Ruleset(Generic[S]):
    """One solo system: its name, version, types and the pure Decider functions."""

    name: str
    version: str
    title: str
    seed: str
    setup_type: type[Struct]
    state_type: type[S]
    event_types: tuple[type[Struct], ...]
    initial_state: Callable[[Any], S]
    decide: Callable[[S, Any, Dice], Sequence[Struct]]
    evolve: Callable[[S, Struct], S]
    view: Callable[[S, Role], Any]
    # The command types, in the order they are listed; derived from a kit-made `decide`
    # (`decider(DISPATCH, ...)`: the dispatch's types) when not given.
    command_types: tuple[type[Struct], ...] = ()
    # Every secret, declared once (engine/secret_fields.py): `redact` is its `redact`
    # unless one of the ruleset's own is given, and `view` leaves its secret state out
    # for every role but the referee.
    secrets: Redactions = NO_SECRETS
    redact: Callable[[Struct, Role], Struct | None] = field(default=_no_redaction)
    # The package holding the ruleset's data files: `scenarios/` (the named scenarios,
    # engine/scenarios.py) and `rule_titles.json` (the seed's headings, engine/citations.py),
    # derived (the package that defines `state_type`) when not given; and the scenario
    # `umpire new RULESET` starts when given no setup.
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
    # The ruleset's test profile (`Testing` above): what umpire's cross-ruleset tests need
    # to know of it that nothing else here says.
    testing: Testing = field(default_factory=Testing)
    # The view in the rules' words (engine/kit/labels.py): each field's label and the names
    # of its coded values, for `umpire state` and the browser.
    labels: Labels = NO_LABELS
    # The documented readings of ambiguous rules that a setup field switches
    # (engine/kit/reading.py): what a rules dispute may claim instead (engine/disputes.py).
    readings: tuple[Reading, ...] = ()
    # The state a game recorded under an older version opens with, where the ruleset's
    # opening has changed since (engine/game.py `start`): given the version its GameCreated
    # names and `initial_state`'s state, that version's opening. An old log then folds, and
    # its receipts' views hash, as they did. None: every version opens alike.
    opened_under: Callable[[str, S], S] | None = None

    def reading(self, name: str) -> Reading | None:
        """The declared reading called `name`, if any."""
        return next((r for r in self.readings if r.name == name), None)

    @property
    def has_secrets(self) -> bool:
        """Whether anything of this ruleset's must not reach a player or spectator before
        the reveal: a redaction declaration, a `redact` of its own or a secret state field
        (then its driven games must make secrets for the secrecy tests to attack)."""
        return bool(secret_declarations(self)[1])

    @property
    def has_hidden_dice(self) -> bool:
        """Whether its secrets come from hidden rolls: a declared secret event names the
        dice it used (a `dice` field, as every `Decision` has). A ruleset whose secrets
        are set-up data (opposing pilots) has secrets but no hidden dice."""
        return any("dice" in t.__struct_fields__ for t in secret_declarations(self)[0])

    def __post_init__(self) -> None:
        derived = {
            "command_types": self.command_types or getattr(self.decide, "command_types", ()),
            "redact": self.secrets.redact if self.redact is _no_redaction else self.redact,
            "view": self.secrets.viewing(self.view),
            "data_package": self.data_package or _package_of(self.state_type),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @property
    def secret_paths(self) -> tuple[str, ...]:
        """Every secret the ruleset declares, by path (engine/secret_fields.py): what a
        player or spectator must not see before the reveal, as the leak checks find it."""
        return self.secrets.paths

    @property
    def secret_fields(self) -> tuple[str, ...]:
        """The declared secrets' bare field names (`Redactions.names`), for callers that
        search a frame by name; `secret_paths` says where each one is."""
        return self.secrets.names


def _package_of(state_type: type[Any]) -> str:
    """The package that defines `state_type` (its module, if that is a package)."""
    module = state_type.__module__
    found = sys.modules.get(module)
    if found is not None and hasattr(found, "__path__"):
        return module
    return module.rpartition(".")[0] or module
