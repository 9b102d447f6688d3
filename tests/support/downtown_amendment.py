"""A Downtown game amended under a reading whose decision rests on public values only
(issue 40 acceptance): 4 (last paragraph) `doubles_reading`. The printed AAA of downtown
Hanoi fires at a bomber where 4.1.2 (b) applies and (a) does not, until a roll is a double,
which calls a random event as played ("(a) or (b)"); the player disputes it under
"(a) and (b)", the finding names the roll's seq as the parting seq at once, the player rules
`amend`, and the game plays on to its natural end (the raid's turn limit). Its export and
the forgeries every verifier must catch: the finding moved onto a seq that is no dispute, its
answer altered ("the same", or another parting seq), a re-applied roll with other faces, a
GameAmended naming other superseded seqs."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.disputes import codec_decoded
from umpire.engine.kit.reading import probe_of
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.readings import DOUBLES_ATTACKS
from umpire.events.errors import UmpireError
from umpire.events.types import DisputeFound, GameAmended, GameEnded
from umpire.server.games import Games
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.schema_sampler import sample

NAME = "downtown"
READING = "doubles_reading"
CLAIMED = "a_and_b"
TURNS = 2  # the raid's turn limit: its natural end comes within a few hundred commands
ATTACKS = 200  # attack rolls tried for a double (one in ten is): never reached in practice
PLAY_ON = 3000  # listed commands sent after the amendment before the test gives up
SKIPPED = ("RollDice", "EndGame", "TakeBack")


class Amended(msgspec.Struct, frozen=True, kw_only=True):
    """The amended game: its id, the disputed roll's seq, the dispute's and the ruling's."""

    game_id: str
    disputed: int
    dispute: int
    ruled: int
    finding: DisputeFound
    marker: GameAmended


async def _events(games: Games, game_id: str) -> list[Any]:
    return codec_decoded(registry.get(NAME), await games.store.read(game_id))


async def _double(games: Games, game_id: str, attack: dict[str, Any]) -> int:
    """Roll `attack` until a roll is a double that calls a random event; its seq."""
    for n in range(ATTACKS):
        await games.handle(game_id, f"attack-{n}", attack)
        decoded = await _events(games, game_id)
        rolled = [
            (seq, e)
            for seq, e in enumerate(decoded, start=1)
            if isinstance(e, ev.DrvAttackRolled) and e.doubles
        ]
        if rolled:
            seq, event = rolled[0]
            assert event.random_event, event.explanation  # (b) applies: called as played
            return seq
    raise AssertionError(f"no double in {ATTACKS} attack rolls")


async def play_to_the_end(games: Games, game_id: str, seed: int) -> None:
    """Send the player's listed commands (fields drawn from their schemas, never EndGame)
    until the raid ends by its rules."""
    ruleset = registry.get(NAME)
    rng = random.Random(seed)
    for n in range(PLAY_ON):
        _, game = await games.load(game_id)
        if game.meta.ended:
            return
        listed = legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game)
        own = [a for a in listed if a.type not in SKIPPED]
        command = sample(rng.choice(own).schema, rng)
        try:
            await games.handle(game_id, f"on-{n}", command)
        except UmpireError:
            continue
    raise AssertionError(f"the raid did not end in {PLAY_ON} commands")


async def amended_game(games: Games) -> Amended:
    """Play, dispute, find, amend and play on to the natural end (the module's story)."""
    reading = registry.get(NAME).reading(READING)
    assert reading is not None
    setup, script = probe_of(reading, {**start_setup(NAME), "turn_limit": TURNS})
    opening, attack = script[:-DOUBLES_ATTACKS], script[-1]
    created = await games.create(NAME, setup)
    game_id = created.game_id
    for n, command in enumerate(opening):
        await games.handle(game_id, f"open-{n}", command)
    disputed = await _double(games, game_id, attack)
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=disputed,
                                claim="(b) alone: a double is ignored", reading=READING,
                                value=CLAIMED)  # fmt: skip
    # Found at once: every value the roll's decision rests on is public.
    assert filed.finding is not None, "the finding on a public decision is pending"
    ruled = await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="amend")
    decoded = await _events(games, game_id)
    marker = decoded[ruled]
    assert isinstance(marker, GameAmended)
    await play_to_the_end(games, game_id, seed=40)
    return Amended(game_id=game_id, disputed=disputed, dispute=filed.id, ruled=ruled,
                   finding=filed.finding, marker=marker)  # fmt: skip


def export_files(cli: Cli, amended: Amended) -> dict[str, Path]:
    """The amended game's export ("honest") and its forgeries, each re-sealed as
    a forger would."""
    honest = cli.export(amended.game_id)
    header, records = read_lines(honest)
    files = {"honest": honest}
    finding = amended.dispute  # the finding's index: the seq after its dispute, less one
    marker = amended.ruled  # GameAmended's index
    reused = next(i for i in range(marker + 1, len(records))
                  if records[i]["type"] == "DiceRolled")  # fmt: skip

    def moved(r: list[dict[str, Any]]) -> int:
        r[finding]["payload"]["dispute"] = amended.dispute - 1
        r[finding]["command_id"] = f"umpire:finding:{amended.dispute - 1}"
        return finding

    def roll(r: list[dict[str, Any]]) -> int:
        r[reused]["payload"]["faces"] = [f % 10 + 1 for f in r[reused]["payload"]["faces"]]
        return reused

    def superseded(r: list[dict[str, Any]]) -> int:
        r[marker]["payload"]["superseded_to"] -= 1
        return marker

    # The finding's answer altered, well formed: "the same" (the lines never part), or
    # parting at the disputed command's CommandRecorded rather than at the roll.
    def same(r: list[dict[str, Any]]) -> int:
        r[finding]["payload"].update(same=True, parts_at=0, as_played="", under_reading="",
                                     stopped="")  # fmt: skip
        return finding

    def parting(r: list[dict[str, Any]]) -> int:
        r[finding]["payload"]["parts_at"] = amended.marker.parts_from
        return finding

    forgeries = {"downtown finding moved": moved, "downtown amended roll": roll,
                 "downtown amended range": superseded, "downtown finding same": same,
                 "downtown finding parting seq": parting}  # fmt: skip
    for name, forgery in forgeries.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(r))
        files[name] = write_lines(cli.tmp / f"{name.replace(' ', '-')}.jsonl", h, r)
    return files


def ended_by_its_rules(decoded: list[Any]) -> bool:
    """The log ends with the raid's own GameEnded (and the final reveal)."""
    ended = [e for e in decoded if isinstance(e, GameEnded)]
    return len(ended) == 1 and "Raid end" in ended[0].rule
