"""The game terms of the Conflict of Heroes solo expansion, defined once, with citations.

Seed: 003_368c69a730e6e14a.txt (the solo rules summary). Every rule citation of this
ruleset is `cite("<rule>")`, e.g. `cite("5.2")` -> "003_368c69a730e6e14a.txt 5.2".
"""

from __future__ import annotations

from enum import StrEnum

from umpire.engine.kit.citation import citations

SEED = "003_368c69a730e6e14a.txt"

cite = citations(SEED)


class Side(StrEnum):
    """Who a counter belongs to: the player's 'Units' or the 'AI' (seed preamble)."""

    PLAYER = "player"
    AI = "ai"


class CardColour(StrEnum):
    """4.0: Blue Command Order cards (fresh or spent AI, no check) and Green Action Order
    cards (fresh AI only, AP Spent Check)."""

    BLUE = "blue"
    GREEN = "green"


class Section(StrEnum):
    """4.0: the two order sections of a card, tried in this order."""

    PRIORITY = "priority"
    TACTICAL = "tactical"


class PlayerAction(StrEnum):
    """3.0: the five things a player turn may be."""

    UNIT = "unit"  # 3.1 AP action
    COMMAND = "command"  # 3.2.2 CAP action
    CARD = "card"  # 3.3 card action
    STALL = "stall"
    PASS = "pass"


class ActionKind(StrEnum):
    """What a unit does in an action (base-game actions the solo rules refer to)."""

    FIRE = "fire"
    MOVE = "move"
    RALLY = "rally"
    PIVOT = "pivot"
    OTHER = "other"


class DrawPurpose(StrEnum):
    """Why an Order Card was drawn."""

    AI_TURN = "ai_turn"  # 4.0
    SPENT_CHECK = "spent_check"  # 3.1.1
    DESTROYED_AI = "destroyed_ai"  # 7.3


class WhoseTurn(StrEnum):
    """Whose turn it is (3.0 / 4.0 alternate)."""

    PLAYER = "player"
    AI = "ai"


class MissionTarget(StrEnum):
    """A target that a mission instruction (7.0, 7.1) names by a rule umpire computes
    (README "Mission instructions"): `most_exposed_ai_hex` is the hex of an AI in play
    covered by the most Units' Fire Zones, then the lowest DM, then 1D6."""

    NONE = ""
    MOST_EXPOSED_AI_HEX = "most_exposed_ai_hex"
