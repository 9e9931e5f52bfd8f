// The SDK's own tests, run with node's built-in runner (`npm test`). The match test needs a running
// arena: TOURNEY_ARENA (host:port) and TOURNEY_ADMIN_TOKEN, as tests/clients/test_node_sdk.py sets
// them around a real `tourney serve`; without them it is skipped.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { play, observationOf, tourneyV1, grpc } = require('../index');

test('observationOf reads the json of whichever game message is set', () => {
  const observation = { game: 'tiny_ninjas', tiny_ninjas: { seat: 1, json: '{"seat": 1, "hand": ["K"]}' } };
  assert.deepStrictEqual(observationOf(observation), { seat: 1, hand: ['K'] });
  assert.deepStrictEqual(observationOf({}), {});
  assert.deepStrictEqual(observationOf(null), {});
});

function runMatch(address, request) {
  const client = new (tourneyV1().Arena)(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.RunMatch(request, { deadline: Date.now() + 120000 }, (error, record) => {
      client.close();
      if (error) reject(error); else resolve(record);
    });
  });
}

const arena = process.env.TOURNEY_ARENA;

test('a bot plays a match on a real arena and hears it end', { skip: !arena && 'TOURNEY_ARENA is not set', timeout: 180000 }, async () => {
  let welcomed;
  const connected = new Promise((resolve) => { welcomed = resolve; });
  const seen = [];
  const playing = play({ address: arena, name: 'node-sdk-test', maxMatches: 1, concurrency: 1 },
    (observation, legalActions, request) => {
      seen.push(observation);
      return legalActions.length - 1;
    }, { onWelcome: welcomed });
  await connected;
  const record = await runMatch(arena, { admin_token: process.env.TOURNEY_ADMIN_TOKEN || '', game: 'tiny-ninjas',
    seats: ['remote:node-sdk-test', 'random'], seed: 5 });
  const ended = await playing;
  assert.strictEqual(record.termination, 'normal');
  assert.strictEqual(ended.length, 1);
  assert.strictEqual(ended[0].match_id, record.match_id);
  assert.ok(seen.length > 0 && seen.every((o) => o.hand !== undefined), 'each request carried the seat\'s own hand');
});

test('a bot plays a real-time match, never answering a withdrawn request', { skip: !arena && 'TOURNEY_ARENA is not set', timeout: 180000 }, async () => {
  let welcomed;
  const connected = new Promise((resolve) => { welcomed = resolve; });
  const errors = [];
  const playing = play({ address: arena, name: 'node-sdk-realtime', maxMatches: 1, concurrency: 1 },
    (observation, legalActions) => Math.floor(Math.random() * legalActions.length),
    { onWelcome: welcomed, onError: (report) => errors.push(report) });
  await connected;
  const record = await runMatch(arena, { admin_token: process.env.TOURNEY_ADMIN_TOKEN || '', game: 'ninja-arena',
    seats: ['remote:node-sdk-realtime', 'random'], seed: 6, realtime: true });
  const ended = await playing;
  assert.ok(['normal', 'adjudication'].includes(record.termination), record.termination);
  assert.strictEqual(ended.length, 1);
  // A reply that crossed its withdrawal on the wire earns an unknown_request the SDK keeps to itself.
  assert.deepStrictEqual(errors, []);
});
