"""The rules' own text and the log's event types said in words a player reads.

Display only: the events keep their text and types as decided (a rule's wording changed in
the log would make every earlier log audit as a different decision).

- `in_words`: a key the rules wrote into their own words (an enum's name: Nightfighter's
  corkscrew "loses searchlight_fix, tally", Downtown's `in_the_air`) said in words
  ("searchlight fix"), by the same rule as the browser table's `inWords`
  (clients/web/citations.js). tests/data/in_words.json holds the cases both are tested
  on, so the two cannot drift.
- `type_in_words`: an event type as a player reads it ("downtown.SamReacted" -> "SAM
  reacted", "DiceRolled" -> "Dice rolled"); the exact type stays in every JSON output.
  `kind_in_words`: the same, but a decision that names its topic is said by it.
  The browser table says types by the same rule (clients/web/citations.js `typeInWords`,
  with `acronyms` of the ruleset's /rulesets.json entry); tests/data/type_words.json
  holds the cases both are tested on.
- `universal_said`: the game's own events (events/types.py: a creation, a command, a roll,
  a reveal, an end, a take-back, a finding) in words, one line each, as `umpire log`
  (server/render.py) and `watch`/`play` (clients/cli.py, from a pushed frame) say them.
- `finding_lines` and `event_said`: a dispute's finding in words (`umpire log`, `dispute`,
  `disputes`, `watch`): the events where the two lines part by their types and what they
  say, not their JSON, as the table's `eventSaid` (clients/web/render.js) says them.

It lives in events/ because both the server's commands and the clients' (which import
events only) print event text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from umpire.events.types import (
    ClientEntropy,
    ClientSeedBound,
    CommandRecorded,
    CommandTakenBack,
    DiceRolled,
    DisputeFound,
    GameCreated,
    GameEnded,
    SeedRevealed,
    Winner,
)

# A lowercase snake_case key: letters and digits joined by underscores, starting with a
# letter. ASCII word boundaries, as JavaScript's \b: a seed file's name (digits first),
# an id, a hash, a number, an Upper_Case word or ordinary text never match.
_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", re.ASCII)

# The words of a CamelCase type: a run of capitals before a capitalised word or the end
# ("AISearched" -> "AI", "Searched"), else a capitalised (or lowercase) word with digits.
_CAMEL_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9]|$)|[A-Z]?[a-z]+[0-9]*|[0-9]+")
_CAMEL = re.compile(r"[A-Za-z][A-Za-z0-9]*")

# A word written in capitals in a ruleset's own words ("AAA", "SAM", "DRV", "AI").
_ACRONYM = re.compile(r"\b[A-Z]{2,}\b", re.ASCII)


def in_words(text: str) -> str:
    """`text` with every snake_case key in words: "loses searchlight_fix, tally" ->
    "loses searchlight fix, tally"."""
    return _KEY.sub(lambda match: match.group().replace("_", " "), text)


def acronyms(
    title: str, labels: Mapping[str, str], value_labels: Mapping[str, Mapping[str, str]]
) -> frozenset[str]:
    """The words a ruleset writes in capitals in its title and view labels (the same
    fields /rulesets.json carries), for `type_in_words`: Downtown's AAA, DRV, SAM, US;
    and its terms of two words or more written in Title Case (`_terms`): Downtown's
    "Fire Can"."""
    texts: list[str] = [title, *labels.values()]
    for named in value_labels.values():
        texts += named.values()
    return frozenset([*_capitals(texts), *_terms(labels)])


def _capitals(texts: Iterable[str]) -> Iterable[str]:
    for text in texts:
        yield from _ACRONYM.findall(text)


def _terms(labels: Mapping[str, str]) -> Iterable[str]:
    """A field's label that spells its key's first words in Title Case names a term of the
    rules ("fire_can_range": "Fire Can range" -> "Fire Can"): the ruleset writes it so,
    and a type or topic holding those words says them so ("Fire Can placed", not "Fire
    can placed"). Two words at least: one capitalised word is only a label's first."""
    for key, label in labels.items():
        said = label.split(" ")
        words = [w for w in said[: len(key.split("_"))] if w[1:].islower()]
        run = 0
        for word, part in zip(words, key.split("_"), strict=False):
            if word != part.capitalize():
                break
            run += 1
        if run >= 2 and said[:run] == words[:run]:
            yield " ".join(said[:run])


def _said(words: list[str], capitals: Collection[str]) -> list[str]:
    """`words` (lowercase) with every run that is one of the `capitals`' terms said as
    the term ("fire", "can" -> "Fire", "Can"), the longest term first."""
    terms = sorted((t.split(" ") for t in capitals if " " in t), key=len, reverse=True)
    out = list(words)
    i = 0
    while i < len(out):
        for term in terms:
            if [w.lower() for w in out[i : i + len(term)]] == [t.lower() for t in term]:
                out[i : i + len(term)] = term
                i += len(term) - 1
                break
        i += 1
    return out


def type_in_words(event_type: str, capitals: Collection[str] = ()) -> str:
    """An event type in words, its ruleset's key left off: "downtown.AaaPlaced" -> "AAA
    placed" when "AAA" is one of the ruleset's `capitals` (`acronyms`), "DiceRolled" ->
    "Dice rolled", "nightfighter.AISearched" -> "AI searched". A type that is not one
    CamelCase name is said by `in_words`."""
    name = event_type.rpartition(".")[2]
    if not _CAMEL.fullmatch(name):
        return in_words(name)
    words = []
    for word in _CAMEL_WORD.findall(name):
        if word.upper() in capitals or (len(word) > 1 and word.isupper()):
            words.append(word.upper())
        else:
            words.append(word.lower())
    said = " ".join(_said(words, capitals))
    return said[:1].upper() + said[1:]


# A decision's topic as a ruleset writes it: a lowercase key ("sam_placement", "gci").
_TOPIC = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*", re.ASCII)


def kind_in_words(event_type: str, payload: Any = None, capitals: Collection[str] = ()) -> str:
    """An event's kind as a player reads it: its type in words (`type_in_words`), except a
    decision that names its topic (a `topic` field: Downtown's DecisionMade, whose type
    says only "Decision made"), which is said by what it decided: the topic in words, with
    the ruleset's `capitals` ("sam_placement" -> "SAM placement", "initiative" ->
    "Initiative"). The browser table says kinds by the same rule (clients/web/render.js
    `kindOf`)."""
    topic = payload.get("topic") if isinstance(payload, Mapping) else None
    if not isinstance(topic, str) or not _TOPIC.fullmatch(topic):
        return type_in_words(event_type, capitals)
    words = [w.upper() if w.upper() in capitals else w for w in topic.split("_")]
    said = " ".join(_said(words, capitals))
    return said[:1].upper() + said[1:]


def field_text(value: Any) -> str:
    """An event's or a command's field value on one line, as a player types it in words
    (`detected=false`, `flights=[{id: x, on_map: true}]`), not a Python repr (`False`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(field_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {field_text(v)}" for k, v in value.items()) + "}"
    return str(value)


# A dispute's finding holds the events where its two lines part as JSON cut at 500
# characters (engine/disputes.py): a long decision's text ends mid-object, often before
# its explanation, so what it says is looked for in the text itself: the explanation, else
# the candidates it chose (which come early: type, rule, dice, candidates).
_STRING = r'"(?:[^"\\]|\\.)*"'
_EXPLANATION = re.compile(rf'"explanation":({_STRING})')
_CHOSEN = re.compile(rf'\{{"option":({_STRING}),"chosen":true,"reason":({_STRING})')
_TYPE = re.compile(r'"type":"([A-Za-z0-9_.]+)"')
_event_json = msgspec.json.Decoder()


def event_said(text: str, capitals: Collection[str] = ()) -> str:
    """An event a dispute's finding holds (its JSON, maybe cut short), in words: its type
    and what its explanation says ("Order card drawn: the AI draws ..."), as the table's
    `eventSaid` says it (clients/web/render.js); cut before its explanation, the fields
    before the cut and the options it chose ("AI moved: unit: AI-RIFLE-2, to hex: 0907",
    "Bot moved: chose P1 (nearest player aircraft at 17d)"); text that is no event as it
    is."""
    try:
        event = _event_json.decode(text)
    except msgspec.DecodeError:
        event = None
    if isinstance(event, dict) and isinstance(event.get("type"), str):
        kind = type_in_words(event["type"], capitals)
        explanation = event.get("explanation")
        if isinstance(explanation, str) and explanation:
            return f"{kind}: {in_words(explanation)}"
        said = fields_said(event, _NOT_SAID)
        return f"{kind}: {said}" if said else kind
    typed = _TYPE.search(text)
    if typed is None:
        return text
    head = type_in_words(typed.group(1), capitals)
    found = _EXPLANATION.search(text)
    if found is not None:
        return f"{head}: {in_words(_string(found.group(1)))}"
    parts = [fields_said(_leading_fields(text), _NOT_SAID)]
    parts += [
        f"chose {_string(option)} ({_string(reason)})" for option, reason in _CHOSEN.findall(text)
    ]
    said = "; ".join(in_words(part) for part in parts if part)
    if said:
        return f"{head}: {said}"
    return f"{head} (its text is cut short in the finding: umpire explain shows it whole)"


# What a decision's own fields are, beside its explanation, citation and candidates
# (`umpire explain` shows those); a finding's line leaves its dice out too.
DECISION_EXTRAS = ("type", "rule", "candidates", "explanation")
_NOT_SAID = (*DECISION_EXTRAS, "dice")


def fields_said(event: Mapping[str, Any], leave_out: Collection[str] = DECISION_EXTRAS) -> str:
    """An event's own fields in words ("unit: AI-RIFLE-2, to hex: 0907", "hit: yes"), the
    empty ones and those in `leave_out` left out."""
    return ", ".join(
        f"{in_words(k)}: {in_words(_read_text(v))}"
        for k, v in event.items()
        if k not in leave_out and not _empty(v)
    )


def _read_text(value: Any) -> str:
    """A field's value as a player reads it in an event's line: `field_text`, but a yes or
    no said so ("passed: no", not "passed: false": a command's fields stay as typed)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_read_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_read_text(v)}" for k, v in value.items()) + "}"
    return field_text(value)


def _empty(value: Any) -> bool:
    """None or an empty text, list, tuple or mapping: it says nothing, so it is left out."""
    return value is None or (isinstance(value, str | list | tuple | dict) and not value)


def _leading_fields(text: str) -> dict[str, Any]:
    """The fields of an event's JSON cut short that come whole before the cut: the longest
    prefix that ends between two fields and reads as an object once closed."""
    at = len(text)
    while (at := text.rfind(',"', 0, at)) > 0:
        try:
            found = _event_json.decode(text[:at] + "}")
        except msgspec.DecodeError:
            continue
        return found if isinstance(found, dict) else {}
    return {}


def _string(quoted: str) -> str:
    """A JSON string literal's text."""
    return str(_event_json.decode(quoted))


def finding_lines(found: DisputeFound, capitals: Collection[str] = ()) -> list[str]:
    """A dispute's finding in words, a line a part: whether the disputed event comes out
    the same, where the two lines part and the event each holds there (its type and what
    it says, not its JSON: `event_said`), why the reading's line stopped, and each change
    at the head ("setup.pace: run on -> every phase")."""
    on = f"finding on dispute {found.dispute}"
    if found.parts_at == 0:
        lines = [f"{on}: the same; under that reading every event up to now comes out as played"]
    else:
        verdict = "the same" if found.same else "different"
        lines = [
            f"{on}: {verdict}; under that reading the game goes otherwise from seq "
            f"{found.parts_at}",
            f"as played: {event_said(found.as_played, capitals)}",
            f"under the reading: {event_said(found.under_reading, capitals)}",
        ]
    if found.stopped:
        lines.append(f"the reading's line stops at {in_words(found.stopped)}")
    for change in found.head:
        lines.append(
            f"at the head, {in_words(change.path)}: {_value_said(change.before)} -> "
            f"{_value_said(change.after)}"
        )
    return lines


def _value_said(value: Any) -> str:
    """A value a finding's head change holds, as a player types it (none: null)."""
    return "none" if value is None else in_words(field_text(value))


# Who won as a game's end states it (GameEnded.winner), said from the player's seat; the
# table's end screen says the same (clients/web/ending.js `WINNER`).
WINNER_SAID: dict[Winner, str] = {
    Winner.PLAYER: "the player wins",
    Winner.OPPONENT: "the player loses",
    Winner.DRAW: "a draw",
    Winner.NONE_STATED: "no winner: the rules state no victory condition",
}


def _winner_said(event: GameEnded) -> str:
    """Who won, in words to put after the end's own, or "" where they say it already:
    Conflict of Heroes' "the player wins: every AI is destroyed" read "(the player
    wins)" after it, twice, and Downtown's end that names the scenario's victory
    conditions a "no winner" after it. An end that names none (an old log) has none."""
    if not isinstance(event.winner, Winner):
        return ""
    result, said = event.result.lower(), WINNER_SAID[event.winner]
    if event.winner is Winner.NONE_STATED:
        return "" if "winner" in result or "victory" in result else said
    return "" if said in result else said


def universal_said(event: Any, capitals: Collection[str] = ()) -> str | None:
    """One of the game's own events in words (its line in `umpire log`, `watch` and
    `play`), or None for any other event (a ruleset's, said by its explanation)."""
    if isinstance(event, GameCreated):
        if event.client_seed:
            client = f"client seed {event.client_seed!r}"  # an old log: bound at creation
        elif event.client_entropy is ClientEntropy.WAIVED:
            client = "client entropy waived (the server's seed alone derives the dice)"
        else:
            client = "client seed to be bound"
        return (
            f"game {event.game_id} created: {in_words(event.ruleset)} v{event.ruleset_version}, "
            f"seed commitment {event.seed_commitment[:16]}…, {client}"
            + (", player may enter the opponent's dice" if event.opponent_manual_dice else "")
        )
    if isinstance(event, ClientSeedBound):
        return f"client seed {event.client_seed!r} bound for seed epoch {event.epoch}"
    if isinstance(event, CommandRecorded):
        manual = " (manual dice)" if event.manual_dice else ""
        typed = command_fields(event.command)
        return f"{event.role} command {event.command_type} {typed}".rstrip() + manual
    if isinstance(event, DiceRolled):
        return _roll_said(event)
    if isinstance(event, SeedRevealed):
        if event.next_commitment:
            return (
                f"seed of epoch {event.epoch} revealed: {event.seed}; next seed committed: "
                f"{event.next_commitment[:16]}…"
            )
        return f"seed revealed: {event.seed}"
    if isinstance(event, GameEnded):
        said = _winner_said(event)
        won = f" ({said})" if said else ""
        return f"game ended: {in_words(event.result)}{won}" + (
            f" — {event.rule}" if event.rule else ""
        )
    if isinstance(event, DisputeFound):
        return "; ".join(finding_lines(event, capitals))
    if isinstance(event, CommandTakenBack):
        return (
            f"took back {event.command_type} (seq {event.seq}, command {event.command_id}): "
            f"the game is as before it" + (f" — {event.rule}" if event.rule else "")
        )
    return None


def roll_name(number: int) -> str:
    """A roll as a player counts the game's rolls, from 1: "roll 1" is the log's roll 0
    (the event's `roll` field, which the audit and the export keep, counts from 0)."""
    return f"roll {number + 1}"


def dice_name(kind: str, sides: Sequence[int], labels: Sequence[str] = ()) -> str:
    """The dice of a roll as the rules name them, where its kind's code name does not: a
    "custom" roll of two d10 is "2d10", an "nd6" of six dice "6d6", mixed dice "d6 + d10";
    named ("coloured") dice by their names, as Nightfighter's rules say them ("blue and
    purple dice"); a card draw and the other kinds as they are. The browser table says
    them by the same rule (clients/web/render.js `diceName`)."""
    if kind == "coloured" and labels:
        names = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)
        return f"{names} {'die' if len(labels) == 1 else 'dice'}"
    if kind not in ("custom", "nd6") or not sides:
        return kind
    groups: list[list[int]] = []
    for n in sides:
        if groups and groups[-1][0] == n:
            groups[-1][1] += 1
        else:
            groups.append([n, 1])
    return " + ".join(f"{count if count > 1 else ''}d{n}" for n, count in groups)


def _roll_said(event: DiceRolled) -> str:
    """A roll: its faces (or [hidden]), who rolled, what for, its rule and whose it is."""
    purpose = in_words(event.purpose)
    dice = dice_name(event.kind, event.sides, event.labels)
    if event.hidden and not event.faces:
        return f"{roll_name(event.roll)}: {dice} for {purpose} [hidden] — {event.rule}"
    labels = (
        " ".join(f"{lab}={f}" for lab, f in zip(event.labels, event.faces, strict=False))
        if event.labels
        else " ".join(map(str, event.faces))
    )
    who = "player" if event.by == "player" else "server"
    whose = "" if event.owner is None else f" · the {event.owner.value}'s roll"
    return (
        f"{roll_name(event.roll)}: {dice} [{labels}] = {event.total} ({who}) for {purpose} "
        f"— {event.rule}{whose}"
    )


def command_fields(command: Mapping[str, Any]) -> str:
    """A command's fields as `name=value` pairs as typed (`umpire play` takes them back),
    its type and any empty field (`note=`, `cards=[]`) left out."""
    return ", ".join(
        f"{k}={field_text(v)}" for k, v in command.items() if k != "type" and not _empty(v)
    )
