// The tourney bot SDK for Node.js: give `play` a function that picks an action, and it plays every
// match the arena gives the bot.
//
//   const { play } = require('tourney-bot');
//   play({ name: 'mine' }, (observation, legalActions, request) => 0).then((ended) => ...);
//
// `observation` is the full observation as an object (the typed message is `request.observation`);
// each legal action has `label` and the game's typed fields. Return an index into legalActions, or
// a negative number to send no reply (the arena then rules a timeout). A Promise is awaited, so a
// bot may think asynchronously; replies are matched by ids, so matches never wait for each other.
'use strict';

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

// The proto travels in the package (copied in by `npm pack`); inside the repository it is read
// from proto/. TOURNEY_PROTO overrides both.
function protoPath() {
  if (process.env.TOURNEY_PROTO) return process.env.TOURNEY_PROTO;
  const packed = path.join(__dirname, 'arena.proto');
  if (fs.existsSync(packed)) return packed;
  return path.join(__dirname, '..', '..', 'proto', 'tourney', 'v1', 'arena.proto');
}

let arenaService = null;

// The generated service, loaded once. keepCase: field names exactly as in the proto;
// defaults: unset fields read as their zero value; longs as strings (request ids are uint64).
function tourneyV1() {
  if (arenaService === null) {
    const definition = protoLoader.loadSync(protoPath(), {
      keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
    });
    arenaService = grpc.loadPackageDefinition(definition).tourney.v1;
  }
  return arenaService;
}

// The full observation as an object, from the `json` field every game message carries.
function observationOf(observation) {
  const which = observation && observation.game;
  if (!which || !observation[which]) return {};
  return JSON.parse(observation[which].json || '{}');
}

// Settings from the environment a launcher sets (`cmd:` entrants get TOURNEY_ARENA, TOURNEY_TOKEN
// and TOURNEY_BOT_NAME), with `defaults` for what is unset.
function settingsFromEnv(defaults = {}) {
  const env = process.env;
  return {
    address: env.TOURNEY_ARENA || defaults.address || '127.0.0.1:50051',
    name: env.TOURNEY_BOT_NAME || defaults.name || 'node-bot',
    token: env.TOURNEY_TOKEN || defaults.token || '',
    games: (env.TOURNEY_GAMES || '').split(',').filter(Boolean),
    concurrency: parseInt(env.TOURNEY_CONCURRENCY || String(defaults.concurrency || 4), 10),
    maxMatches: parseInt(env.TOURNEY_MATCHES || String(defaults.maxMatches || 0), 10),
  };
}

// Play until the arena closes the stream, or settings.maxMatches matches have ended. Resolves with
// the MatchEnded messages; rejects with the gRPC error when the arena refuses the bot or cannot be
// reached. Hooks (all optional): onWelcome(welcome), onMatchEnded(ended), onError(errorReport).
function play(settings, choose, hooks = {}) {
  const s = { ...settingsFromEnv(), ...settings };
  const Arena = tourneyV1().Arena;
  const client = new Arena(s.address, grpc.credentials.createInsecure());
  const stream = client.Play();
  const ended = [];
  // Withdrawn real-time requests: a reply to one would only earn an `unknown_request`. Bounded:
  // the oldest are forgotten first.
  const withdrawn = new Set();
  const MAX_WITHDRAWN = 4096;

  async function answer(request) {
    let index;
    try {
      index = await choose(observationOf(request.observation), request.legal_actions, request);
    } catch (error) {
      return; // a bug in the bot: say nothing, the arena rules a timeout
    }
    const key = `${request.match_id}/${request.request_id}`;
    if (withdrawn.has(key) || !Number.isInteger(index) || index < 0) return;
    stream.write({ reply: { match_id: request.match_id, request_id: request.request_id, action_index: index } });
  }

  return new Promise((resolve, reject) => {
    let failed = null;
    stream.on('data', (message) => {
      switch (message.kind) {
        case 'welcome':
          if (hooks.onWelcome) hooks.onWelcome(message.welcome);
          break;
        case 'action_request':
          answer(message.action_request);
          break;
        case 'withdrawn':
          withdrawn.add(`${message.withdrawn.match_id}/${message.withdrawn.request_id}`);
          if (withdrawn.size > MAX_WITHDRAWN) withdrawn.delete(withdrawn.values().next().value);
          break;
        case 'match_ended':
          ended.push(message.match_ended);
          if (hooks.onMatchEnded) hooks.onMatchEnded(message.match_ended);
          if (s.maxMatches > 0 && ended.length >= s.maxMatches) stream.end();
          break;
        case 'error': {
          const report = message.error;
          // A reply that crossed its request's withdrawal on the wire: nobody's fault, not reported.
          const crossed = report.code === 'unknown_request' && withdrawn.has(`${report.match_id}/${report.request_id}`);
          if (!crossed && hooks.onError) hooks.onError(report);
          break;
        }
        default:
          break; // kinds added later are ignored
      }
    });
    stream.on('error', (error) => {
      if (error.code !== grpc.status.CANCELLED) failed = error;
    });
    stream.on('close', () => {
      client.close();
      if (failed) reject(failed); else resolve(ended);
    });
    stream.write({ hello: { bot_name: s.name, token: s.token, games: s.games, max_concurrent_matches: s.concurrency } });
  });
}

module.exports = { play, observationOf, settingsFromEnv, tourneyV1, grpc };
