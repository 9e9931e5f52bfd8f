"""Leagues: seasons of scheduled rounds, divisions with promotion and relegation, ratings carried over.

A league plays one round per tick of its cron schedule (croniter). The ticks are numbered
slots; slot k is round k % R of some season, where R is the season's round count. Each season
is a set of ordinary tournaments (one per division, stored like any other tournament), so
pairing, results, byes and standings are the tournament code's; a league round is one round of
each of its division tournaments.

`run_due` plays every slot whose time has passed, in order, and is safe to run from cron
every minute and from several processes at once: a slot is claimed by inserting its
LeagueRound row, whose (league, slot) pair is unique, so exactly one caller wins each slot
and the others move on. The claim is a lease: the caller renews it while the round plays
(every third of `lease_s`), and gives it back when it is stopped (SIGTERM, an exception), so
another caller takes the round over at once. A caller that dies without a word leaves a claim
that expires after `lease_s`; whoever reclaims it replays the round, and matches already
stored are skipped (a table that gets deals of its own, a seat there remembering, is dealt anew:
its bots may have seen the lost match's deal). After downtime only the latest `catch_up` due rounds are played; the
older ones are recorded as one "missed" slot. The clock is a parameter, so tests step through
months of schedule without sleeping.

The package, one idea per module (import from the module that holds a name; this package
re-exports nothing):

- members.py: creating, joining, leaving, pausing and listing leagues;
- schedule.py: cron ticks, slot claims and their leases, catch-up after downtime;
- season.py: divisions, promotion and relegation, carried ratings, a season's standings;
- forfeits.py: the records of matches not played because a bot was offline;
- rounds.py: `run_due`, which claims each due slot and plays its round.

The league tables are in tournament/store/league_tables.py, made by the store's Alembic
migrations like every other table (`open_store`).
"""
