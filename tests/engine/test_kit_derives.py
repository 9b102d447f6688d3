"""The kit writes the boilerplate (issue #31 item 2): `decide` is made from the dispatch and
the ruleset's Turn class, the derivable Ruleset fields are derived, and each secret is
declared once, from which redaction, the view and the leak checks' paths follow."""

from __future__ import annotations

import pytest
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.dice import ManualDice, d6
from umpire.engine.errors import RuleError
from umpire.engine.kit.decider import Decider, decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.kit.turn import Turn
from umpire.engine.roles import Role
from umpire.engine.secret_fields import NO_SECRETS, Redactions, SecretFields, SecretState
from umpire.events.types import DiceRolled, Owner

SHIPPED = ("age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown", "nightfighter")


class Pool(Struct, frozen=True, kw_only=True):
    size: int = 0
    hidden: int = 0  # the same name as DiceRolled.hidden, and not that field


class PoolBought(Struct, frozen=True, tag="t.PoolBought", kw_only=True):
    count: int
    hidden: int
    note: dict[str, int] = {}


class Buy(Struct, frozen=True, tag="Buy", kw_only=True):
    count: int = 1


def _fold(state: Pool, event: Struct) -> Pool:
    if isinstance(event, PoolBought):
        return Pool(size=state.size + event.count, hidden=state.hidden + event.hidden)
    return state


class PoolTurn(Turn[Pool]):
    def __init__(self, state: Pool, dice: ManualDice) -> None:
        super().__init__(state, dice, evolve=_fold, cite=lambda rule: f"t {rule}")


def _buy(turn: PoolTurn, command: Buy) -> None:
    turn.emit(PoolBought(count=command.count, hidden=1))


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_is_made_by_the_kit(name: str) -> None:
    """`decide` is the kit's Decider, whose dispatch gives the command types; the data
    package is the ruleset's own package; `redact` is its declarations'."""
    ruleset = registry.get(name)
    assert isinstance(ruleset.decide, Decider)
    assert ruleset.command_types == ruleset.decide.dispatch.command_types
    assert ruleset.data_package == f"umpire.engine.rulesets.{name}"
    owner = getattr(ruleset.redact, "__self__", None)
    assert owner is ruleset.secrets


def test_decider_runs_begin_handler_end_in_order() -> None:
    seen: list[str] = []
    dispatch: Dispatch[object] = Dispatch({Buy: _buy}, rule="t 1")
    decide = decider(
        dispatch,  # type: ignore[arg-type]
        PoolTurn,
        begin=lambda turn, command: seen.append(f"begin {command.count}"),
        end=lambda turn: seen.append(f"end {turn.state.size}"),
    )
    events = decide(Pool(), Buy(count=2), ManualDice([], 0))
    assert events == [PoolBought(count=2, hidden=1)]
    assert seen == ["begin 2", "end 2"]  # `end` reads the state the handler's events made
    assert decide.command_types == (Buy,)
    with pytest.raises(RuleError, match="unknown command"):
        decide(Pool(), PoolBought(count=1, hidden=0), ManualDice([], 0))


SECRETS = Redactions(
    SecretState("hidden", why="the hidden part of the pool"),
    SecretFields(PoolBought, fields={"hidden": -1, "note": {}}, secret=("hidden", "note.*")),
)


def test_paths_name_each_secret_where_it_is() -> None:
    assert SECRETS.paths == ("t.PoolBought.hidden", "t.PoolBought.note.*", "state.hidden")
    assert SECRETS.names == ("hidden",)
    assert Redactions(SecretFields(PoolBought, withheld=True)).paths == ("t.PoolBought",)
    assert NO_SECRETS.paths == ()


def test_a_secret_path_must_start_at_a_field_of_its_event() -> None:
    with pytest.raises(ValueError, match="PoolBought has no field 'secret'"):
        Redactions(SecretFields(PoolBought, secret=("secret",)))
    with pytest.raises(ValueError, match="PoolBought has no field 'hiden'"):
        Redactions(SecretFields(PoolBought, fields={"hiden": -1}))


def test_the_view_leaves_the_secret_state_out_but_for_the_referee() -> None:
    def view(state: Pool, role: Role) -> dict[str, int]:
        return {"size": state.size, "hidden": state.hidden}

    viewed = SECRETS.viewing(view)
    assert viewed(Pool(size=3, hidden=2), Role.PLAYER) == {"size": 3}
    assert viewed(Pool(size=3, hidden=2), Role.SPECTATOR) == {"size": 3}
    assert viewed(Pool(size=3, hidden=2), Role.REFEREE) == {"size": 3, "hidden": 2}
    assert SECRETS.viewing(viewed) is viewed  # wrapped once, however often it is asked


def test_redaction_follows_the_same_declaration() -> None:
    event = PoolBought(count=2, hidden=1, note={"a": 1})
    assert SECRETS.redact(event, Role.PLAYER) == PoolBought(count=2, hidden=-1, note={})
    assert SECRETS.redact(event, Role.REFEREE) is event
    roll = ManualDice([[4]], 0).roll(
        d6(), purpose="p", rule="t 1", hidden=True, owner=Owner.OPPONENT
    )
    shown = SECRETS.redact(roll, Role.PLAYER)
    assert isinstance(shown, DiceRolled) and shown.faces == ()


def test_the_counter_example_declares_its_secret_once() -> None:
    """examples/umpire-counter: R3's number is declared once (SECRETS) and its view pops
    nothing itself; the Ruleset's view leaves it out for a player."""
    ruleset = registry.get("counter")
    state = ruleset.initial_state(ruleset.setup_type())
    assert "secret" in ruleset.view(state, Role.REFEREE)
    assert "secret" not in ruleset.view(state, Role.PLAYER)
    assert ruleset.secret_paths == ("counter.SecretChosen", "state.secret")
    assert ruleset.secret_fields == ("secret",)
