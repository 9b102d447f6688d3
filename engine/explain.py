"""A decision in plain words: the rule and table row, the dice with their faces, and every
candidate considered with why it lost (ARCHITECTURE.md "The ruleset contract").

Pure: it reads a decoded log (a list of event payloads, seq n at index n - 1) and returns
an `Explanation`; `server/replay_command.py` prints it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine.citations import readable
from umpire.events.rules_words import (
    dice_name,
    in_words,
    kind_in_words,
    roll_name,
    type_in_words,
)
from umpire.events.types import (
    ClientSeedBound,
    CommandRecorded,
    CommandTakenBack,
    DiceRolled,
    GameCreated,
    GameEnded,
    SeedRevealed,
)

# Fields every decision carries, shown in their own sections rather than as inputs.
_DECISION_FIELDS = ("type", "rule", "dice", "candidates", "explanation")


class DieUsed(Struct, frozen=True, kw_only=True):
    """One roll a decision used, found in the log by its roll number."""

    roll: int
    seq: int
    kind: str
    faces: tuple[int, ...]
    labels: tuple[str, ...]
    total: int
    by: str
    purpose: str
    rule: str
    hidden: bool

    def words(self) -> str:
        """`roll 4 (seq 7): 2d6 showing 4 and 5 = 9, rolled by the server for morale` (a
        player counts the rolls from 1: events/rules_words.py `roll_name`)."""
        if self.hidden and not self.faces:
            shown = "faces hidden until the game ends (its final reveal)"
        else:
            if self.labels:
                faces = ", ".join(f"{lab} {f}" for lab, f in zip(self.labels, self.faces,
                                                                 strict=False))  # fmt: skip
            else:
                faces = " and ".join(str(f) for f in self.faces)
            shown = f"showing {faces} = {self.total}"
        return (
            # Named dice as the rules name them ("blue and purple dice", not "coloured").
            f"{roll_name(self.roll)} (seq {self.seq}): {dice_name(self.kind, (), self.labels)} "
            f"{shown}, rolled by the "
            f"{self.by} for {self.purpose} ({self.rule})"
        )


class CandidateWords(Struct, frozen=True, kw_only=True):
    """One option a decision weighed."""

    option: str
    chosen: bool
    reason: str

    def words(self) -> str:
        """`chosen: X, because ...` or `rejected: Y, because ...`."""
        verdict = "chosen" if self.chosen else "rejected"
        return f"{verdict}: {self.option} — {self.reason}"


class Explanation(Struct, frozen=True, kw_only=True):
    """Everything `umpire explain` says about one event."""

    seq: int
    event_type: str
    summary: str
    rule: str = ""
    table_row: str = ""
    dice: tuple[DieUsed, ...] = ()
    missing_dice: tuple[int, ...] = ()
    candidates: tuple[CandidateWords, ...] = ()
    inputs: dict[str, Any] = {}
    caused_by: str = ""
    hidden: bool = False

    def lines(self, capitals: Collection[str] = ()) -> list[str]:
        """The explanation as plain sentences, one a line, citations as the rulebook's
        (engine/citations.py), the event's type and the rules' text in words
        (events/rules_words.py; `capitals`: the ruleset's, as in "SAM reacted"). Display
        only: the fields (`explain --json`) keep the event's own type, text and citation."""
        return [readable(line) for line in self._lines(capitals)]

    def _lines(self, capitals: Collection[str]) -> list[str]:
        # A decision that names its topic is said by it (its inputs hold the topic).
        kind = (
            self.event_type
            if self.hidden
            else kind_in_words(self.event_type, self.inputs, capitals)
        )
        out = [f"Event {self.seq}: {kind}", in_words(self.summary)]
        if self.hidden:
            return out
        if self.rule:
            out.append(f"Rule: {self.rule}")
        if self.table_row:
            out.append(f"Table row: {self.table_row}")
        if self.caused_by:
            out.append(f"Caused by: {self.caused_by}")
        if self.dice:
            out.append("Dice used:")
            out += [f"  - {in_words(d.words())}" for d in self.dice]
        for roll in self.missing_dice:
            out.append(f"  - {roll_name(roll)}: not in this log")
        if self.candidates:
            rejected = sum(not c.chosen for c in self.candidates)
            out.append(f"Candidates considered ({len(self.candidates)}, {rejected} rejected):")
            out += [f"  - {in_words(c.words())}" for c in self.candidates]
        if self.inputs:
            out.append("Details:")
            out += [f"  - {in_words(key)}: {_said(value)}" for key, value in self.inputs.items()]
        return out


def _said(value: Any) -> str:
    """A detail's value in words, as the table says an event's fields: "id B2-1, enter
    turn 3; id B2-2, enter turn 3", "in the air" (a key the rules wrote), never JSON."""
    return _short(_words(value))


def _words(value: Any) -> str:
    if isinstance(value, str):
        return in_words(value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{in_words(str(k))} {_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        sep = "; " if any(isinstance(v, dict | list | tuple) for v in value) else ", "
        return sep.join(_words(v) for v in value) or "none"
    return str(value)


def _short(text: str) -> str:
    return text if len(text) <= 300 else text[:297] + "..."


def _die(seq: int, roll: DiceRolled) -> DieUsed:
    return DieUsed(
        roll=roll.roll, seq=seq, kind=roll.kind, faces=tuple(roll.faces),
        labels=tuple(roll.labels), total=roll.total, by=str(roll.by), purpose=roll.purpose,
        rule=roll.rule, hidden=roll.hidden,
    )  # fmt: skip


def _rolls_by_number(events: Sequence[Struct | None]) -> dict[int, tuple[int, DiceRolled]]:
    return {e.roll: (index + 1, e) for index, e in enumerate(events) if isinstance(e, DiceRolled)}


def _command_of(events: Sequence[Struct | None], seq: int) -> str:
    """The command whose batch holds event `seq` (the nearest CommandRecorded before it)."""
    for index in range(seq - 1, -1, -1):
        event = events[index]
        if isinstance(event, CommandRecorded):
            return f"{event.role} command {event.command_type} at seq {index + 1}"
    return ""


def explain(
    events: Sequence[Struct | None], seq: int, capitals: Collection[str] = ()
) -> Explanation:
    """Explain event `seq` of a decoded log (None marks an event hidden from the reader).

    `events[n - 1]` is the payload of seq n. The caller checks that `seq` is in range.
    `capitals`: the ruleset's (events/rules_words.py), for a summary that names the type.
    """
    event = events[seq - 1]
    if event is None:
        return Explanation(
            seq=seq, event_type="(hidden)", hidden=True,
            summary="This event is hidden from your role until the game ends (its final reveal).",
        )  # fmt: skip
    tag = type(event).__struct_config__.tag
    event_type = tag if isinstance(tag, str) else type(event).__name__
    caused_by = _command_of(events, seq) if not isinstance(event, CommandRecorded) else ""
    if isinstance(event, GameCreated):
        return Explanation(
            seq=seq, event_type=event_type,
            summary=f"The game was created for {event.ruleset} v{event.ruleset_version}. "
            f"The server committed to its secret dice seed by publishing its SHA-256 "
            f"({event.seed_commitment}); "
            + (f"the client seed is {event.client_seed!r}." if event.client_seed else
               "the game waived client entropy: the server's seed alone derives the dice."
               if event.client_entropy == "waived" else
               "the client binds its seed in a later event, having seen this commitment."),
            inputs={"setup": event.setup},
        )  # fmt: skip
    if isinstance(event, CommandRecorded):
        manual = " with dice the player rolled by hand" if event.manual_dice else ""
        fields = {k: v for k, v in event.command.items() if k != "type"}
        taken = next((n + 1 for n, e in enumerate(events)
                      if isinstance(e, CommandTakenBack) and e.seq == seq), None)  # fmt: skip
        later = (f" The player took it back at seq {taken}: the game went back to the state "
                 "before it; its events stay in the log.") if taken else ""  # fmt: skip
        return Explanation(
            seq=seq, event_type=event_type, inputs=fields,
            summary=f"The {event.role} sent the command {event.command_type}{manual}; the "
            "rules decided the events that follow it in the same batch." + later,
        )  # fmt: skip
    if isinstance(event, CommandTakenBack):
        return Explanation(
            seq=seq, event_type=event_type, rule=event.rule, caused_by=caused_by,
            inputs={"seq": event.seq, "command_id": event.command_id},
            summary=f"The player took back the command {event.command_type} recorded at seq "
            f"{event.seq}: the game is as it was before that command. Its events stay in "
            "the log and the fold skips them. A takeback is allowed while no die has been "
            "rolled and nothing hidden shown since, at most two commands deep.",
        )  # fmt: skip
    if isinstance(event, DiceRolled):
        key = "the game's hidden-dice key" if event.hidden else "seed"  # dice.py roll_key
        who = "the player, with physical dice" if event.by == "player" else (
            f"the server: faces derived from HMAC-SHA256({key}, client seed, {event.roll}: "
            "the log's roll number, which counts from 0)"
        )  # fmt: skip
        die = _die(seq, event)
        return Explanation(
            seq=seq, event_type=event_type, rule=event.rule, dice=(die,), caused_by=caused_by,
            summary=f"{roll_name(event.roll).capitalize()} for {event.purpose}, rolled by {who}.",
        )  # fmt: skip
    if isinstance(event, ClientSeedBound):
        return Explanation(
            seq=seq, event_type=event_type, inputs={"client_seed": event.client_seed},
            summary=f"The player bound its client seed for seed epoch {event.epoch}, after "
            "the epoch's seed commitment was published and before its first roll; the "
            "epoch's server rolls derive from both seeds.",
        )  # fmt: skip
    if isinstance(event, SeedRevealed) and event.next_commitment:
        return Explanation(
            seq=seq, event_type=event_type,
            summary=f"The server published the dice seed of seed epoch {event.epoch} while "
            "the game goes on. Anyone holding the log can check it against that epoch's "
            "commitment and recompute the epoch's server rolls; the rolls from here on "
            "come from a fresh seed, committed in this event, and a fresh client seed.",
            inputs={"seed": event.seed, "next_commitment": event.next_commitment},
        )  # fmt: skip
    if isinstance(event, SeedRevealed):
        return Explanation(
            seq=seq, event_type=event_type,
            summary="The server published its dice seed. Anyone holding the log can now check "
            "it against the commitment in event 1 and recompute every server roll.",
            inputs={"seed": event.seed},
        )  # fmt: skip
    if isinstance(event, GameEnded):
        return Explanation(
            seq=seq, event_type=event_type, rule=event.rule, caused_by=caused_by,
            summary=f"The game ended: {event.result}.",
        )  # fmt: skip
    return _decision(events, seq, event, event_type, caused_by, capitals)


def _decision(
    events: Sequence[Struct | None],
    seq: int,
    event: Struct,
    event_type: str,
    caused_by: str,
    capitals: Collection[str],
) -> Explanation:
    data: dict[str, Any] = msgspec.to_builtins(event)
    rule = str(data.get("rule", "") or "")
    row = " ".join(str(data[k]) for k in sorted(data) if k in ("row", "table_row", "table"))
    rolls = _rolls_by_number(events)
    used: list[DieUsed] = []
    missing: list[int] = []
    for number in data.get("dice", ()) or ():
        if isinstance(number, int) and number in rolls:
            at, roll = rolls[number]
            used.append(_die(at, roll))
        elif isinstance(number, int):
            missing.append(number)
    candidates = tuple(
        CandidateWords(option=str(c.get("option", "")), chosen=bool(c.get("chosen")),
                       reason=str(c.get("reason", "")))
        for c in data.get("candidates", ()) or () if isinstance(c, dict)
    )  # fmt: skip
    explanation = str(data.get("explanation", "") or "")
    if not explanation:
        chosen = [c.option for c in candidates if c.chosen]
        explanation = (
            f"The rules chose {', '.join(chosen)}." if chosen
            else f"The rules recorded it: {type_in_words(event_type, capitals)}."
        )  # fmt: skip
    inputs = {
        k: v for k, v in data.items() if k not in _DECISION_FIELDS and k not in ("row", "table_row")
    }
    return Explanation(
        seq=seq, event_type=event_type, summary=explanation, rule=rule, table_row=row,
        dice=tuple(used), missing_dice=tuple(missing), candidates=candidates, inputs=inputs,
        caused_by=caused_by,
    )  # fmt: skip
