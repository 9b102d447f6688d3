"""What the cross-ruleset tests share: drivers, players, attacks, samplers (umpire.testing).
umpire's own tests import these too."""
