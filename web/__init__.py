"""The web face of tourney: leaderboards, match browser, replay viewer and live games.

It reads the results store (tournament.store and the public reading functions of
tournament) and follows live matches through the arena's public gRPC API, like any
client. It never writes to the store; nothing else imports it.
"""
