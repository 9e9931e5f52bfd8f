#!/usr/bin/env node
// A bot for the tourney Arena in Node.js: answers every ActionRequest with a uniformly random legal
// index, plays any game the arena hosts, and prints one JSON line per finished match.
//
// Environment (all optional): TOURNEY_ARENA=host:port, TOURNEY_BOT_NAME, TOURNEY_TOKEN,
// TOURNEY_GAMES=comma,separated, TOURNEY_MATCHES=N (leave after N matches),
// TOURNEY_CONCURRENCY=N (matches at once), TOURNEY_PROTO=path/to/arena.proto.
'use strict';

const { play, settingsFromEnv, grpc } = require('./index');

const settings = settingsFromEnv({ name: 'node-random' });
let requests = 0;

function choose(observation, legalActions) {
  requests += 1;
  return Math.floor(Math.random() * legalActions.length);
}

play(settings, choose, {
  onWelcome: (welcome) => console.error(`bot '${welcome.bot_name}' connected to the arena at ${settings.address}; waiting for matches.`),
  onMatchEnded: (m) => console.log(JSON.stringify({ match_id: m.match_id, seat: m.seat, ranks: m.ranks, reason: m.reason,
    termination: m.termination, points: m.points })),
  onError: (e) => console.error(`arena error ${e.code}: ${e.message}`),
}).then((ended) => {
  console.error(`done: ${ended.length} matches, ${requests} decisions`);
}, (error) => {
  const fix = error.code === grpc.status.UNAUTHENTICATED
    ? 'set TOURNEY_TOKEN to the token `tourney bots add NAME` printed, or serve with --allow-anonymous'
    : 'start it with `tourney serve` or set TOURNEY_ARENA to its host:port';
  console.error(`error: cannot play on the arena at ${settings.address} (${error.details || error.message}): ${fix}.`);
  process.exitCode = 2;
});
