"""Everything about playing one match: game rules, built-in bots, the referee and the Arena server."""
