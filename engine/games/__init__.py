"""One package per game: pure rules, no I/O, no clocks, no threads."""
