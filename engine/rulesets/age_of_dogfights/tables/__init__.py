"""The seed's die tables as data (seed_tables), the aggressiveness modifiers, and the
base-game placeholder dice (custom_dice) and Firing Outcome Chart (firing_chart)."""
