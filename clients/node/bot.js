#!/usr/bin/env node
// A bot for the tourney Arena in Node.js: connects, says Hello, answers every ActionRequest
// with a uniformly random legal index, and plays any game the arena hosts.
//
// Environment (all optional): TOURNEY_ARENA=host:port, TOURNEY_BOT_NAME, TOURNEY_TOKEN,
// TOURNEY_GAMES=comma,separated, TOURNEY_MATCHES=N (leave after N matches),
// TOURNEY_CONCURRENCY=N (matches at once), TOURNEY_PROTO=path/to/arena.proto.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO = process.env.TOURNEY_PROTO ||
  path.join(__dirname, '..', '..', 'proto', 'tourney', 'v1', 'arena.proto');
// keepCase: field names exactly as in the proto; defaults: unset fields read as their zero value.
const definition = protoLoader.loadSync(PROTO, {
  keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
});
const tourney = grpc.loadPackageDefinition(definition).tourney.v1;

const address = process.env.TOURNEY_ARENA || '127.0.0.1:50051';
const name = process.env.TOURNEY_BOT_NAME || 'node-random';
const token = process.env.TOURNEY_TOKEN || '';
const games = (process.env.TOURNEY_GAMES || '').split(',').filter(Boolean);
const maxMatches = parseInt(process.env.TOURNEY_MATCHES || '0', 10);
const concurrency = parseInt(process.env.TOURNEY_CONCURRENCY || '4', 10);

// The typed observation of whichever game is set; every game message also carries `json`.
function observationOf(observation) {
  const which = observation && observation.game;
  if (!which) return {};
  return JSON.parse(observation[which].json || '{}');
}

// The simple policy: a uniformly random legal action.
function choose(observation, legalActions) {
  return Math.floor(Math.random() * legalActions.length);
}

// Every request fits well within gRPC's default 4 MB limit (the arena keeps them under 64 KB).
const client = new tourney.Arena(address, grpc.credentials.createInsecure());
const stream = client.Play();
let ended = 0;
let requests = 0;

stream.on('data', (message) => {
  switch (message.kind) {
    case 'welcome':
      console.error(`connected as ${message.welcome.bot_name} (session ${message.welcome.session_id})`);
      break;
    case 'match_started':
      console.error(`match ${message.match_started.match_id}: ${message.match_started.game}, seat ${message.match_started.seat}`);
      break;
    case 'action_request': {
      const request = message.action_request;
      requests += 1;
      const index = choose(observationOf(request.observation), request.legal_actions);
      stream.write({ reply: { match_id: request.match_id, request_id: request.request_id, action_index: index } });
      break;
    }
    case 'match_ended': {
      const m = message.match_ended;
      ended += 1;
      console.log(JSON.stringify({ match_id: m.match_id, seat: m.seat, ranks: m.ranks, reason: m.reason,
        termination: m.termination, points: m.points }));
      if (maxMatches > 0 && ended >= maxMatches) stream.end();
      break;
    }
    case 'error':
      console.error(`arena error ${message.error.code}: ${message.error.message}`);
      break;
    default:
      break;
  }
});
stream.on('error', (error) => {
  if (error.code !== grpc.status.CANCELLED) {
    console.error(`stream error: ${error.message}`);
    process.exitCode = 1;
  }
});
stream.on('end', () => {
  console.error(`done: ${ended} matches, ${requests} decisions`);
  client.close();
});

stream.write({ hello: { bot_name: name, token, games, max_concurrent_matches: concurrency } });
