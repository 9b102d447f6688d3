"""Down in Flames' tables as data, one module per table. The supplemental rules print
no table (the numbers are in the rules' text), so each holds typed rows with their
citations rather than a SeedTable of a printed page (README)."""
