"""Errors a command can meet in the engine. Each says what was wrong and what is allowed."""

from __future__ import annotations

from typing import Any

# A command's shape is checked where it is read: by the rules, and before that by the
# command line's words (events/command_words.py), so the error lives with the log's own.
from umpire.events.errors import InvalidCommand as InvalidCommand
from umpire.events.errors import UmpireError


class RuleError(UmpireError):
    """A command the rules do not allow now. Names the rule it breaks."""

    code = "rule_violation"

    def __init__(self, message: str, *, rule: str, **details: Any) -> None:
        super().__init__(message, rule=rule, **details)
        self.rule = rule


class NothingToDo(RuleError):
    """A command that would change nothing now (its job is done, or it restates the game
    as it is): not listed among the legal actions, and refused if sent (issue 41 item 8).
    Names the rule and what already holds."""

    code = "nothing_to_do"


class CommandNotAllowed(RuleError):
    """A command whose type is not among the role's legal actions now (engine/actions.py).
    Names the command and lists the types that are allowed now."""

    code = "command_not_allowed"


class InvalidSetup(UmpireError):
    """A setup that does not validate for the ruleset."""

    code = "invalid_setup"


class UnknownRuleset(UmpireError):
    """No ruleset of that name is installed."""

    code = "unknown_ruleset"


class BrokenRuleset(UnknownRuleset):
    """An installed ruleset that cannot be used: its entry point does not load to a Ruleset
    of its own name, or two installed packages declare rulesets of one name."""

    code = "broken_ruleset"


class GameOver(UmpireError):
    """The game has ended; it takes no more commands."""

    code = "game_over"


class ManualDiceError(UmpireError):
    """Entered dice that do not fit the rolls the command needs."""

    code = "manual_dice"


class DiceMismatch(UmpireError):
    """Recorded dice that do not fit the roll asked for (an audit or replay divergence)."""

    code = "dice_mismatch"


class OpponentDiceRefused(UmpireError):
    """Physical dice entered for an opponent's roll in a game that does not allow it."""

    code = "opponent_dice"


class PlayerRollRefused(UmpireError):
    """A roll by the player where the rules or the game do not let the player roll it."""

    code = "player_roll"


class ContractViolation(UmpireError):
    """A ruleset broke the Decider contract (e.g. rolled dice it did not log)."""

    code = "contract_violation"


class ClientSeedRequired(UmpireError):
    """A roll the server would derive before the client's seed of the epoch is bound."""

    code = "client_seed_required"


class NonceRequired(UmpireError):
    """A command without its own entropy (`nonce`) in a game that binds client entropy."""

    code = "nonce_required"


class InvalidNonce(UmpireError):
    """A command nonce that is not 32 to 64 lowercase hex digits."""

    code = "invalid_nonce"


class ClientSeedRefused(UmpireError):
    """A client seed offered where the provably-fair flow does not take one (at create,
    twice in one epoch, after a roll of the epoch, or in a game that waived it)."""

    code = "client_seed_refused"
