"""The twin-game differential: what every role sees of twin games that differ only in a
secret is the same until the rules make the difference public (issues #16, #32, #42).

A game is played on the real store (testing/support/drivers.py: one fixed random sequence
that sends every command type the ruleset lists); its twins play the same game id, seed and
commands with the secret changed (`twins`: every hidden roll's faces moved on, and the setup
with each secret field set otherwise, testing/support/secret_twins.py). Before each command,
for the player and a spectator, the twins must show the same view, the same legal actions
(types, rules, texts and narrowed schemas) and the same answer to every probe: each listed
action's example, the example with one field drawn from the command's full schema, and one
sample of every command type the ruleset takes (universal ones included), decided on the
game as it stands and written nowhere (`ProbingGames.probe`), so an accepted probe leaves no
trace either. The first few probes of each step are also sent by the player with physical
dice, as an attacker reads a rule path from the refusals (`_manual`: how many rolls, how many
dice each), and those answers must be the same too. The command itself must get the same
answer (the same refusal, or accepted with the same seqs), and every event frame and view
after every seq must be the same.

A refusal in one twin and an acceptance in the other is always a failure: a command whose
effect depends on a hidden value is accepted whatever the value, and its effect decided
sealed (docs/rulesets.md "Secrets"). The comparison of a pair ends at the first event in
which the difference is public by the rules: an event whose type differs or a public event
that differs, where one of the two is of a type a rule publishes (`Testing.published`;
any other public difference fails: the secret leaked), or a field a rule publishes
(`Testing.published_fields`).

Normalised (and why): `hash`, `prev_hash` and `digest` are keyed commitments or hashes over
them, which differ by design when a hidden value does (testing/access/test_hash_secrecy.py
attacks exactly those fields); `recorded_at` is the wall clock.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from msgspec import Struct

import umpire.server.games as games_module
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.dice import ServerDice
from umpire.engine.game import apply, codec_for, fold
from umpire.engine.handling import command_types
from umpire.engine.offers import command_schema
from umpire.engine.redaction import is_secret, redact, view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset, secret_declarations
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import DiceRolled
from umpire.server.event_frames import encode_frame
from umpire.server.rules_job import RulesJob
from umpire.testing.support.drivers import REFUSALS, Coverage, driver
from umpire.testing.support.nonces import NoncedGames, nonce_of
from umpire.testing.support.schema_sampler import sample
from umpire.testing.support.secret_twins import VIEWERS, secret_setups, shifted_dice

COMMANDS = 150
ATTEMPTS = 4  # games (other dice, other commands) a ruleset with secrets may take to show one
NORMALISED = ("hash", "prev_hash", "digest", "recorded_at")
# Probes a step sends per role: a sample of the step's probe set, so that a long game of a
# ruleset with many command types stays within the suite's time (the step's own rng picks
# them, the same in both twins).
PROBES = 12
# Accepted probes a step follows with a second command (a sample of what is listed after
# it), and how many: a secret may show only in what a command makes possible
# ("ReportHand cards=7", then "EndTurn").
FOLLOWED, FOLLOWS = 3, 2
SMALL = 10
# Probes a step also sends with physical dice, as the player, and how many entries an
# attacker's sequence of them may grow to: see `_manual`.
MANUAL, MANUAL_TRIES = 4, 16

# A refusal as the gateway answers it (code, message, details), ("accepted", first, last)
# for the command sent, or the events an accepted probe would append.
Answer = tuple[Any, ...] | list[Struct]


def refusal(exc: UmpireError) -> tuple[Any, ...]:
    """A refusal as the gateway answers it: its code, message and details."""
    return (exc.code, exc.message, msgspec.json.encode(exc.details, order="deterministic"))


class ProbingGames(NoncedGames):
    """`Games` that can also ask what a command would do, without writing it."""

    async def probe(
        self, game_id: str, commands: list[dict[str, Any]], role: Role, n: int, then: int = 0,
        manual: list[list[int]] | None = None,
    ) -> tuple[list[Answer], Any]:  # fmt: skip
        """What `commands` would do now, one after the other, as `role` sends them: for
        each, the events it would append or its refusal (which ends the sequence), by the
        command path's own decision (server/games.py `decide_for`, with this game's dice
        and sealing key), each folded into a copy of the game for the next; and that copy.
        Nothing is appended. The first command's nonce depends on `n` alone, so a probe
        followed by another (`then` numbers the follow-up) re-decides exactly the probe
        already compared: with fresh dice its hidden rolls could part the twins unseen
        (only the follow-up's events are compared), showing only as the follow-up's roll
        numbers (Nightfighter: a hidden location re-rolled in one twin)."""
        ruleset, game = await self.load(game_id)
        seed = None if game.meta.needs_client_seed else await self._seed_for(game)
        key = await self._hidden_key(game) if seed is not None else None
        answers: list[Answer] = []
        for k, command in enumerate(commands):
            try:
                nonce = nonce_of(f"probe{n}.{k}" if k == 0 else f"probe{n}.{k}.{then}")
                if manual is not None:
                    job = RulesJob(ruleset, game, command, manual, None, role)
                else:
                    job = RulesJob(ruleset, game, command, None, seed, role, nonce, key)
                events = games_module.decide_for(job)
            except UmpireError as exc:
                answers.append(refusal(exc))
                break
            answers.append(events)
            for event in events:
                game = apply(ruleset, game, event)
        return answers, game


def probes(ruleset: Ruleset[Any], listed: list[Any], rng: random.Random) -> list[dict[str, Any]]:
    """Commands to try now: each listed action's example, two mutations of it (one field
    drawn from the command type's full schema; one whole number set to a small one, where
    game rules draw their lines: hands, bursts, counts), and a sample of every command
    type."""
    types = command_types(ruleset)
    out: list[dict[str, Any]] = []
    for action in listed:
        example = sample(action.schema, rng)
        out.append(example)
        whole = sample(command_schema(types[action.type]), rng)
        names = sorted(set(example) & set(whole) - {"type"})
        if names:
            name = rng.choice(names)
            out.append({**example, name: whole[name]})
        counts = sorted(k for k, v in example.items() if type(v) is int)
        if counts:
            out.append({**example, rng.choice(counts): rng.randint(0, SMALL)})
    out += [sample(command_schema(t), rng) for _, t in sorted(types.items())]
    rng.shuffle(out)
    return out[:PROBES]


@dataclass
class Step:
    """One command of a twin: the seq before it, what each viewer saw before it (view,
    legal actions, the probes and their answers), the command and its answer."""

    seq: int
    seen: dict[Role, tuple[bytes, bytes, Probed]]
    command: dict[str, Any]
    answer: Answer = ()


@dataclass
class Twin:
    """A played game: its log and its steps."""

    log: list[Envelope] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)


# A probe, its answer, and the probes that follow it, with theirs.
Probed = list[tuple[dict[str, Any], Answer, list[tuple[dict[str, Any], Answer]]]]


async def _manual(
    games: ProbingGames, gid: str, command: dict[str, Any], n: int
) -> list[tuple[dict[str, Any], Answer]]:
    """`command` sent with physical dice as an attacker would, to read its rule path from
    the refusals without a roll being made: no dice first, then one more entry each time
    the dice run out, each entry mended to the number of dice the refusal says its roll
    takes, until the command is accepted or refused otherwise (a refusal writes nothing,
    so every one is free). Each try with its answer."""
    entries: list[list[int]] = []
    out: list[tuple[dict[str, Any], Answer]] = []
    for _ in range(MANUAL_TRIES):
        answers, _ = await games.probe(gid, [command], Role.PLAYER, n, manual=entries)
        answer = answers[0]
        out.append(({**command, "physical dice": [list(e) for e in entries]}, answer))
        if isinstance(answer, list) or answer[0] != "manual_dice":
            break
        details = msgspec.json.decode(answer[2])
        if "takes" in details:
            entries[details["entry"] - 1] = [1] * details["takes"]
        elif "made" in details:
            break
        else:  # the dice ran out
            entries.append([1])
    return out


async def _probed(
    games: ProbingGames, ruleset: Ruleset[Any], gid: str, role: Role, player: list[Any],
    rng: random.Random, step: int,
) -> Probed:  # fmt: skip
    """The probes of one step as `role` sends them, with their answers: each of `probes`,
    and FOLLOWED accepted ones followed by each action type listed after them and not
    before, and up to FOLLOWS others listed after them."""
    out: Probed = []
    followed = 0
    before = {a.type for a in player}
    for n, command in enumerate(probes(ruleset, player, rng)):
        answers, after = await games.probe(gid, [command], role, step * 100 + n)
        then: list[tuple[dict[str, Any], Answer]] = []
        out.append((command, answers[0], then))
        if role is Role.PLAYER and n < MANUAL:
            out += [(c, a, []) for c, a in await _manual(games, gid, command, step * 100 + n)]
        if followed >= FOLLOWED or not isinstance(answers[0], list) or after.meta.ended:
            continue
        followed += 1
        listed = legal_actions(ruleset, after.state, Role.PLAYER, ended=False, game=after)
        new = [a for a in listed if a.type not in before]
        others = [a for a in listed if a.type in before]
        # Its own rng: what follows a probe whose effect went public may differ between the
        # twins, and must not change what the later probes draw.
        own = random.Random(f"{step}.{n}.{role.value}")
        for k, action in enumerate([*new, *own.sample(others, min(len(others), FOLLOWS))]):
            second = sample(action.schema, own)
            answered, _ = await games.probe(gid, [command, second], role, step * 100 + n, k + 1)
            then.append((second, answered[-1]))
    return out


async def _seen(
    games: ProbingGames, ruleset: Ruleset[Any], gid: str, game: Any, step: int, attempt: int
) -> dict[Role, tuple[bytes, bytes, Probed]]:
    seen = {}
    player = legal_actions(ruleset, game.state, Role.PLAYER, ended=game.meta.ended, game=game)
    for role in VIEWERS:
        listed = legal_actions(ruleset, game.state, role, ended=game.meta.ended, game=game)
        # The probes are drawn from what the player is offered (the same in both twins, or
        # the actions' comparison fails first) by the step's own rng.
        rng = random.Random(step * 1009 + attempt * 17 + (role is Role.SPECTATOR))
        seen[role] = (
            msgspec.json.encode(view_for(ruleset, game.state, role, revealed=False)),
            msgspec.json.encode(listed),
            await _probed(games, ruleset, gid, role, player, rng, step),
        )
    return seen


async def play(
    store: RedisEventStore, name: str, setup: dict[str, Any], dice: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch, attempt: int, original: Twin | None = None,
) -> Twin:  # fmt: skip
    """Play the driver's game of `name` from `setup` with `dice` as the server's dice. A
    twin of `original` stops at its first public difference from it: nothing after it is
    compared (the original plays on, and its driver's coverage is checked)."""
    monkeypatch.setattr(games_module, "ServerDice", dice)
    ruleset = registry.get(name)
    games = ProbingGames(
        store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32),
        draw_receipt_key=lambda: bytes(32),
    )  # fmt: skip
    gid = (await games.create(name, setup, game_id="gdiff", client_entropy="bind")).game_id
    await games.bind_client_seed(gid, f"diff{attempt}")
    _, propose = driver(name)
    rng = random.Random(11 + attempt)
    coverage = Coverage(name)
    twin = Twin()
    differs = _Divergence(ruleset, original) if original is not None else None
    for i in range(COMMANDS):
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        if differs is not None and differs.found(await store.read(gid, differs.checked + 1)):
            twin.log = await store.read(gid)
            return twin
        coverage.offer(game.state)
        command = rng.choice(propose(game.state, rng))
        coverage.send(command)
        step = Step(game.meta.seq, await _seen(games, ruleset, gid, game, i, attempt), command)
        twin.steps.append(step)
        # Refused by the rules (the driver proposes freely): only the engine's typed
        # refusals; any other exception of `decide` fails the test.
        with contextlib.suppress(*REFUSALS):
            try:
                result = await games.handle(gid, f"c{i}", command)
                step.answer = ("accepted", result.first_seq, result.last_seq)
            except UmpireError as exc:
                step.answer = refusal(exc)
                raise
    coverage.check()
    twin.log = await store.read(gid)
    return twin


class _Divergence:
    """Whether a twin's log has differed publicly from its original's yet, read as it
    grows."""

    def __init__(self, ruleset: Ruleset[Any], original: Twin) -> None:
        self.ruleset = ruleset
        self.codec = codec_for(ruleset)
        self.theirs = [self.codec.decode(e.type, e.version, e.payload) for e in original.log]
        self.hidden = {e.roll for e in self.theirs if isinstance(e, DiceRolled) and e.hidden}
        self.checked = 0

    def found(self, new: list[Envelope]) -> bool:
        """Whether the events after those checked so far differ publicly from the
        original's (a hidden roll of this twin counts as hidden for the check)."""
        for env in new:
            mine = self.codec.decode(env.type, env.version, env.payload)
            if isinstance(mine, DiceRolled) and mine.hidden:
                self.hidden.add(mine.roll)
            if self.checked >= len(self.theirs):
                return True
            with contextlib.suppress(AssertionError):  # compare() reports it, in order
                if not _public_difference(
                    self.ruleset, self.theirs[self.checked], mine, self.hidden
                ):
                    self.checked += 1
                    continue
            return True
        return False


def _frame(ruleset: Any, env: Envelope, event: Struct, role: Role) -> Any:
    raw = encode_frame(ruleset, env, event, role, False)
    frame = msgspec.json.decode(raw) if raw is not None else None
    if isinstance(frame, dict):
        for key in NORMALISED:
            frame.pop(key, None)
    return frame


def _tag(event: Struct) -> str:
    return str(type(event).__struct_config__.tag)


def _public_difference(ruleset: Any, a: Struct, b: Struct, hidden_rolls: set[int]) -> bool:
    """Whether the twins part publicly at this event pair. A public difference ends the
    comparison only where a rule publishes it: one of the two events' types is declared
    (`Testing.published`); any other public difference is a leak of the secret."""
    if a == b:
        return False
    if type(a) is not type(b) or not (is_secret(ruleset, a) or is_secret(ruleset, b)):
        published = ruleset.testing.published
        used = set(getattr(a, "dice", ())) | set(getattr(b, "dice", ()))
        assert _tag(a) in published or _tag(b) in published, (
            f"the twins part publicly at {_tag(a)} vs {_tag(b)}"
            + (f" (hidden roll(s) {sorted(used & hidden_rolls)})" if used & hidden_rolls else "")
            + f", and no rule publishes it (Testing.published): {a} vs {b}"
        )
        return True
    tag = type(a).__struct_config__.tag  # type: ignore[attr-defined]
    published = ruleset.testing.published_fields.get(tag, ())
    return any(getattr(a, f) != getattr(b, f) for f in published)


def _same_effect(
    ruleset: Any, a: list[Struct], b: list[Struct], role: Role, hidden_rolls: set[int]
) -> str:
    """How two accepted probes' events look to `role`: "same", "published" (the same up
    to the first public difference, from which the rules publish the secret) or "differs"."""
    for x, y in zip(a, b, strict=False):
        if _public_difference(ruleset, x, y, hidden_rolls):
            return "published"
        seen = [redact(ruleset, e, role, revealed=False) for e in (x, y)]
        if msgspec.json.encode(seen[0]) != msgspec.json.encode(seen[1]):
            return "differs"
    return "same" if len(a) == len(b) else "differs"


def _compare_answer(
    ruleset: Any, what: str, x: Answer, y: Answer, role: Role, hidden_rolls: set[int]
) -> bool:
    """Assert two twins' answers to one probe alike up to a public difference; whether
    they are the same (what follows them may be compared too)."""
    if not (isinstance(x, list) and isinstance(y, list)):
        assert x == y, (
            f"{what} answered differently in twins differing only in secrets: "
            f"{_short(x)} vs {_short(y)}"
        )
        return False  # refused alike: nothing follows
    effect = _same_effect(ruleset, x, y, role, hidden_rolls)
    assert effect != "differs", f"{what} has other effects: {x} vs {y}"
    return effect == "same"


def _compare_probes(
    ruleset: Any, where: str, role: Role, a: Probed, b: Probed, hidden_rolls: set[int]
) -> None:
    """Each probe answered alike in both twins, up to a public difference, and what
    follows an accepted one alike while it is the same."""
    for (command, x, then_a), (_, y, then_b) in zip(a, b, strict=True):
        what = f"{where}: probe {command} as the {role}"
        if not _compare_answer(ruleset, what, x, y, role, hidden_rolls):
            continue
        assert [c for c, _ in then_a] == [c for c, _ in then_b], (
            f"{what}: the legal actions after it differ: {then_a} vs {then_b}"
        )
        for (second, x2), (_, y2) in zip(then_a, then_b, strict=True):
            _compare_answer(ruleset, f"{what}, then {second}", x2, y2, role, hidden_rolls)


def _compare_steps(
    ruleset: Any, first: Twin, other: Twin, stop: int, hidden_rolls: set[int]
) -> None:
    """Views, listed actions, probes and answers of every step before the stop."""
    name = ruleset.name
    for i, (a, b) in enumerate(zip(first.steps, other.steps, strict=False)):
        if a.seq > stop or b.seq != a.seq:
            return
        where = f"{name}: before command {i + 1} {a.command}"
        for role in VIEWERS:
            (view_a, listed_a, probed_a), (view_b, listed_b, probed_b) = a.seen[role], b.seen[role]
            assert view_a == view_b, f"{where}: the {role} views differ"
            assert listed_a == listed_b, (
                f"{where}: the {role}'s legal actions differ:\n{listed_a!r}\n{listed_b!r}"
            )
            _compare_probes(ruleset, where, role, probed_a, probed_b, hidden_rolls)
        if a.command != b.command:
            return  # the driver proposed otherwise: CommandRecorded makes it public
        accepted = a.answer[:1] == ("accepted",) and b.answer[:1] == ("accepted",)
        if accepted and a.answer[2] > stop:
            return  # this command's events made the difference public, by the rules
        assert a.answer == b.answer, (
            f"{where}: the command was answered differently: {a.answer} vs {b.answer}"
        )


def _short(answer: Answer) -> Any:
    if isinstance(answer, list):
        return ("accepted", [type(e).__name__ for e in answer])
    return answer


def compare(ruleset: Any, first: Twin, other: Twin) -> tuple[int, int]:
    """Check two twins' steps, frames and views for both viewers up to the first public
    difference; (that stop index, how many secret decisions differed before it)."""
    logs = [first.log, other.log]
    codec = codec_for(ruleset)
    events = [[codec.decode(e.type, e.version, e.payload) for e in log] for log in logs]
    stop = min(len(logs[0]), len(logs[1]))
    hidden_rolls = {e.roll for log in events for e in log if isinstance(e, DiceRolled) and e.hidden}
    for i, (a, b) in enumerate(zip(events[0], events[1], strict=False)):
        if _public_difference(ruleset, a, b, hidden_rolls):
            stop = i
            break
    _compare_steps(ruleset, first, other, stop, hidden_rolls)
    played = [fold(logs[k][:1], ruleset=ruleset) for k in (0, 1)]
    for i in range(stop):
        if i > 0:
            played = [apply(ruleset, played[k], events[k][i]) for k in (0, 1)]  # type: ignore[arg-type]
        for role in VIEWERS:
            frames = [_frame(ruleset, logs[k][i], events[k][i], role) for k in (0, 1)]
            assert frames[0] == frames[1], f"{ruleset.name} {role}: seq {i + 1}: {frames}"
            views = [
                msgspec.json.encode(view_for(ruleset, g.state, role, revealed=False))  # type: ignore[union-attr]
                for g in played
            ]
            assert views[0] == views[1], f"{ruleset.name} {role}: view after seq {i + 1}"
    decisions = sum(
        1
        for a, b in zip(events[0][:stop], events[1][:stop], strict=True)
        if a != b and not isinstance(a, DiceRolled)
    )
    return stop, decisions


def twins(
    ruleset: Ruleset[Any], setup: dict[str, Any], hidden_dice: bool
) -> tuple[list[dict[str, Any]], list[Callable[..., Any]]]:
    """The twins of a game from `setup`: the setup with its secret fields set otherwise
    (`Ruleset.secret_fields`: down_in_flames' opposing pilots), and server dice whose
    hidden rolls come out otherwise (several shifts when it rolled any: some keep the public
    result longer, downtown's AAA roll 8 -> 4 buys as many counters, of other densities;
    one for a game with no secret at all, which must play identically)."""
    setups = secret_setups(ruleset, setup)
    shifts = range(1, 7) if hidden_dice else ([1] if not setups else [])
    return setups, [shifted_dice(shift) for shift in shifts]


async def _variants(
    url: str, prefix: str, name: str, setup: dict[str, Any], original: Twin,
    attempt: int, monkeypatch: pytest.MonkeyPatch,
) -> int:  # fmt: skip
    """Play the twins of a game and compare them; how many secret decisions differed from
    the original's before a result went public. A twin with other dice stops at its first
    public difference from the original. The twins with other secret set-ups play to the
    end and are compared with each other too: one pilot's public act (an Ace declaring
    its card) ends the comparison with the original, not between two twins in which it is
    void alike."""
    ruleset = registry.get(name)
    codec = codec_for(ruleset)
    decoded = [codec.decode(e.type, e.version, e.payload) for e in original.log]
    setups, dice = twins(
        ruleset, setup, any(isinstance(e, DiceRolled) and e.hidden for e in decoded)
    )
    variants = [(other, ServerDice, None) for other in setups]
    variants += [(setup, shifted, original) for shifted in dice]
    decisions = 0
    full: list[Twin] = []
    for n, (variant_setup, server_dice, against) in enumerate(variants, start=1):
        store = RedisEventStore.from_url(url, prefix=f"{prefix}{n}")
        try:
            other = await play(
                store, name, variant_setup, server_dice, monkeypatch, attempt, against
            )
        finally:
            await store.close()
        stop, differed = compare(ruleset, original, other)
        assert stop > 1, f"{name}: the games differ publicly from their creation"
        decisions += differed
        if against is None:
            for earlier in full:
                compare(ruleset, earlier, other)
            full.append(other)
    return decisions


async def check(url: str, prefix: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential for the ruleset `name`: its twins show every viewer the same
    until the rules publish the difference, and a ruleset that declares secrets shows a
    secret decision that differs before then."""
    ruleset = registry.get(name)
    setup, _ = driver(name)
    codec = codec_for(ruleset)
    # The dice decide whether a game makes secrets at all (a nightfighter game may never
    # find a bomber), and whether one differs before its result goes public (downtown's
    # AAA purchase is counted in public): a ruleset that declares secrets gets another game
    # (other dice, other commands) while one shows none.
    hidden_rolled = False
    decoded: list[Struct] = []
    decisions = 0
    for attempt in range(ATTEMPTS):
        store = RedisEventStore.from_url(url, prefix=f"{prefix}a{attempt}")
        try:
            original = await play(store, name, setup, ServerDice, monkeypatch, attempt)
        finally:
            await store.close()
        decoded = [codec.decode(e.type, e.version, e.payload) for e in original.log]
        hidden_rolled |= any(isinstance(e, DiceRolled) and e.hidden for e in decoded)
        decisions = await _variants(
            url, f"{prefix}a{attempt}v", name, setup, original, attempt, monkeypatch
        )
        if decisions or not ruleset.has_secrets:
            break
    # Its declarations say its secrets come from hidden rolls: one of its games rolls some.
    assert hidden_rolled or not ruleset.has_hidden_dice, f"{name}: no hidden roll in its games"
    if ruleset.has_secrets:  # its own declarations say so (engine/ruleset.py)
        assert decisions, (
            f"{name} declares secrets ({', '.join(secret_declarations(ruleset)[1])}), but no "
            f"secret decision differed before the results went public"
        )
    else:  # nothing is hidden in this game: the variants played it identically
        assert not any(is_secret(ruleset, e) for e in decoded)
