"""The dice of a re-run `decide` in an audit: the log's faces, everything else as the rules
say (docs/audit.md (6) "Command batches").

The audit re-runs each recorded command and compares what comes out with what the log
holds. The faces cannot be re-made (a server roll is checked against the revealed seed
elsewhere; a player's roll was entered by hand), so they are taken from the log; the
roll's number, kind, sides, total, purpose, rule, hidden flag and roller are what the
rules and the recorded command make of them, so a forged one shows up as a difference.
Who rolled must fit the recorded command: a command recorded with manual dice has only
player rolls, any other only server rolls; and a player roll of the opponent's stands only
in a game created to allow it (GameCreated.opponent_manual_dice).
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.engine.dice import DiceSpec, face_range, recorded_roll, roll_event
from umpire.engine.errors import DiceMismatch, PlayerRollRefused
from umpire.events.rules_words import roll_name
from umpire.events.types import DiceRolled, Owner, Roller


class AuditDice:
    """The recorded rolls of one command's batch, handed to a re-run of `decide`.

    `recorded` holds (seq, DiceRolled) for the rolls the log holds after the command;
    `next_roll` is the game's roll count before it; `manual` is the recorded command's
    manual-dice flag; `opponent_dice` whether the game allows the player's dice for the
    opponent's rolls. Errors name the seq of the offending roll in `details["seq"]`.
    """

    def __init__(
        self,
        recorded: Sequence[tuple[int, DiceRolled]],
        *,
        next_roll: int,
        manual: bool,
        opponent_dice: bool = False,
    ) -> None:
        self._opponent_dice = opponent_dice
        self.opponent_entries = opponent_dice
        self.opponent_rolls_by_player = 0
        self._recorded = list(recorded)
        self._next = next_roll
        self._manual = manual
        self._by = Roller.PLAYER if manual else Roller.SERVER
        self._used = 0
        self.rolled: list[DiceRolled] = []

    def roll(
        self, spec: DiceSpec, *, purpose: str, rule: str, owner: Owner, hidden: bool = False
    ) -> DiceRolled:
        """The next recorded faces, as the roll the rules ask for."""
        seq, held = self._recorded[self._used] if self._used < len(self._recorded) else (0, None)
        event = recorded_roll(held, spec, purpose=purpose, rule=rule, seq=seq)
        for index, face in enumerate(event.faces):
            low, high = face_range(spec, min(index, len(spec.sides) - 1))
            if len(event.faces) != len(spec.sides) or not low <= face <= high:
                raise DiceMismatch(
                    f"{roll_name(event.roll)} shows {list(event.faces)}: not a roll of "
                    f"{spec.kind.value} {list(spec.sides)} ({purpose}, {rule})",
                    seq=seq,
                    purpose=purpose,
                    rule=rule,
                )
        if event.by is not self._by:
            how = "with manual dice, so" if self._manual else "without manual dice, so"
            raise PlayerRollRefused(
                f"{roll_name(event.roll)} ({purpose}) is marked as rolled by the {event.by.value}, "
                f"but its command was recorded {how} every roll of it is the {self._by.value}'s",
                seq=seq,
                rule=rule,
            )
        if self._manual and owner is Owner.OPPONENT:
            if not self._opponent_dice:
                raise PlayerRollRefused(
                    f"{roll_name(event.roll)} ({purpose}, {rule}) is the opponent's, but the "
                    "player entered it, in a game not created to allow the player's dice for the "
                    "opponent's rolls",
                    seq=seq,
                    rule=rule,
                )
            self.opponent_rolls_by_player += 1
        # A log from before rolls recorded their owner holds none: the rules' owner counts.
        recorded_owner = None if event.owner is None else owner
        expected = roll_event(
            spec, self._next, tuple(event.faces), purpose=purpose, rule=rule, hidden=hidden,
            by=self._by, owner=recorded_owner,
        )  # fmt: skip
        self._next += 1
        self._used += 1
        self.rolled.append(expected)
        return expected
