"""The seed of this ruleset, with whitespace removed (the transcription runs words together
at line breaks), for checking table cells against the printed rules."""

from __future__ import annotations

import re

from tests.support.seeds import seed_text
from umpire.engine.rulesets.down_in_flames.terms import SEED


def squeezed() -> str:
    """The seed text without any whitespace."""
    return re.sub(r"\s+", "", seed_text(SEED))


def says(phrase: str) -> bool:
    """Whether the seed prints `phrase` (compared without whitespace)."""
    return re.sub(r"\s+", "", phrase) in squeezed()
