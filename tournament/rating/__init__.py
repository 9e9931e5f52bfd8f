"""What results add up to: ratings, standings and their table, the SPRT, achievements, result text."""
