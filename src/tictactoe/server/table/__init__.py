"""A table's life: its serial owner, the registry of open tables, the clock, takebacks, the
computer's seat, what clients see of a table, and a finished game's review."""
