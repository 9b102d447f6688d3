"""The Counter ruleset, now its own package (examples/umpire-counter): kept importable
here while other branches still import it from this path. New code imports umpire_counter."""

from umpire_counter import *  # noqa: F403
from umpire_counter import RULESET as RULESET
