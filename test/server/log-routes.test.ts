import { strict as assert } from 'node:assert';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import { keyIdOf, verifyCheckpoint, verifyCheckpointConsistency, verifyPageInclusion } from '../../src/audit/transparency-log';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { ConsistencyReply, InclusionReply, LogKeyReply, SignedCheckpoint } from '../../src/protocol/transparency-log';
import type { HttpRefusal } from '../../src/protocol/refusals';
import type { RunningServer } from '../../src/server/app';
import { CheckpointLog } from '../../src/server/checkpoints';
import { mountLogRoutes } from '../../src/server/log-routes';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { startTestServer } from '../support/game-server';

const NOW = 1_764_000_000_000;

describe('log routes', () => {
  const signingKey = newCheckpointSigningKey();
  const previous = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let server: Server;
  let base: string;
  let dealer: MemoryStore;
  let clock = NOW;
  let requests = 0;

  async function sell(units: number): Promise<void> {
    for (let i = 0; i < units; i++) {
      const bought = await dealer.sales.purchase({ playerId: 'p', requestId: `r${++requests}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: NOW + requests });
      assert.ok(bought.ok);
    }
  }

  async function get<T>(path: string, status = 200): Promise<T> {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, status, `${path}: ${res.status}`);
    return (await res.json()) as T;
  }

  before(async () => {
    dealer = new MemoryStore();
    await dealer.emissions.openEmission({ emissionId: 'noel', table: TEN_UNIT_TABLE, blockCount: 6, now: NOW });
    await dealer.wallets.deposit('p', 10_000, 'd', NOW);
    await sell(10);
    const { log } = await CheckpointLog.start(dealer.log, { checkpointSigningKey: signingKey, checkpointPreviousKeys: [previous], checkpointLogId: 'test-log' }, () => clock);
    const app = express();
    mountLogRoutes(app, log);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('publishes the signing key, raw and PEM, with its id, and the keys of before', async () => {
    const keys = await get<LogKeyReply>('/fairness/log/key');
    assert.equal(keys.logId, 'test-log');
    const pem = createPublicKey(signingKey).export({ type: 'spki', format: 'pem' }).toString();
    assert.equal(keys.pem, pem);
    assert.equal(Buffer.from(keys.raw, 'base64').length, 32);
    assert.equal(keys.keyId, await keyIdOf(Buffer.from(keys.raw, 'base64')));
    assert.deepEqual(keys.keys.map((k) => k.pem), [pem, previous]);
  });

  it('answers the latest checkpoint, signed by the published key, over every page published', async () => {
    const keys = await get<LogKeyReply>('/fairness/log/key');
    const checkpoint = await get<SignedCheckpoint>('/fairness/log/checkpoint');
    assert.equal(checkpoint.treeSize, await dealer.log.logSize());
    assert.equal(checkpoint.treeSize, 3, 'page 0 of blocks 0, 1 (sold out, then opened) and 2 (printed ahead)');
    assert.equal(checkpoint.keyId, keys.keyId);
    assert.ok((await verifyCheckpoint(checkpoint, keys.raw)).ok);
    assert.deepEqual(await get<SignedCheckpoint>('/fairness/log/checkpoint'), checkpoint, 'signed once per tree size');
  });

  it('proves a page in the log, by block and page or by index, under the latest checkpoint', async () => {
    const keys = await get<LogKeyReply>('/fairness/log/key');
    const [page] = (await dealer.pages.pageCommitments('noel.1'))!;
    const byPage = await get<InclusionReply>('/fairness/log/inclusion?blockId=noel.1&page=0');
    const check = await verifyPageInclusion(byPage, keys.raw, { blockId: 'noel.1', page: 0, root: page!.root });
    assert.ok(check.ok, JSON.stringify(check));
    assert.equal(check.leaf.publishedAt, page!.publishedAt);
    assert.deepEqual(await get<InclusionReply>(`/fairness/log/inclusion?index=${byPage.index}`), byPage);
  });

  it('proves that a newer checkpoint extends a saved one', async () => {
    const keys = await get<LogKeyReply>('/fairness/log/key');
    const saved = await get<SignedCheckpoint>('/fairness/log/checkpoint');
    await sell(25);
    clock += 1_000;
    const newer = await get<SignedCheckpoint>('/fairness/log/checkpoint');
    assert.ok(newer.treeSize > saved.treeSize, `${saved.treeSize} → ${newer.treeSize}`);
    const proof = await get<ConsistencyReply>(`/fairness/log/consistency?from=${saved.treeSize}&to=${newer.treeSize}`);
    assert.ok((await verifyCheckpointConsistency(saved, newer, proof, keys.raw)).ok);
    assert.deepEqual(await get<ConsistencyReply>(`/fairness/log/consistency?from=0&to=${newer.treeSize}`), { from: 0, to: newer.treeSize, proof: [] });
  });

  it('refuses malformed requests with 400 and a refusal code, whatever a client sends', async () => {
    for (const query of [
      'consistency?from=2', 'consistency?from=3&to=2', 'consistency?from=-1&to=2', 'consistency?from=1.5&to=2', 'consistency?from=1&to=2&x=1', 'consistency?from=1&from=2&to=3', 'consistency?from=01&to=2',
      'inclusion', 'inclusion?index=x', 'inclusion?index=1&blockId=noel.1', 'inclusion?blockId=noel.1', 'inclusion?blockId=..%2F&page=0', 'inclusion?blockId=noel.1&page=-1', `inclusion?index=${'9'.repeat(30)}`,
    ]) {
      const body = await get<HttpRefusal>(`/fairness/log/${query}`, 400);
      assert.equal(body.error.code, 'fairness/log_malformed', query);
    }
  });

  it('answers 404 for what the log does not hold yet', async () => {
    const { treeSize } = await get<SignedCheckpoint>('/fairness/log/checkpoint');
    for (const query of [`inclusion?index=${treeSize}`, 'inclusion?blockId=noel.5&page=0', 'inclusion?blockId=noel.1&page=1', `consistency?from=1&to=${treeSize + 1}`]) {
      const body = await get<HttpRefusal>(`/fairness/log/${query}`, 404);
      assert.equal(body.error.code, 'fairness/log_not_found', query);
    }
  });
});

describe('log routes on the embedded server', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('signs with a key made at start when none is set, and covers the emissions opened', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const keys = (await (await fetch(`${base}/fairness/log/key`)).json()) as LogKeyReply;
    const checkpoint = (await (await fetch(`${base}/fairness/log/checkpoint`)).json()) as SignedCheckpoint;
    assert.equal(checkpoint.logId, 'page-roots');
    assert.ok(checkpoint.treeSize > 0, 'the pages 0 of the blocks printed at start');
    assert.ok((await verifyCheckpoint(checkpoint, keys.raw)).ok);
  });
});

describe('the checkpoint log catching up', () => {
  it('hashes a long log in slices, letting the event loop turn between them', async () => {
    const leaves = Array.from({ length: 5_000 }, (_, i) => `leaf ${i}`);
    const pages = { logSize: async () => leaves.length, logLeaves: async (from: number, count: number) => leaves.slice(from, from + count), logIndexOf: async () => undefined };
    const { log } = await CheckpointLog.start(pages, { checkpointSigningKey: newCheckpointSigningKey(), checkpointPreviousKeys: [], checkpointLogId: 'slices' }, () => NOW);
    let caughtUp = false;
    let turnedBefore = false;
    const checkpoint = log.checkpoint().then((c) => {
      caughtUp = true;
      return c;
    });
    setImmediate(() => (turnedBefore = !caughtUp));
    assert.equal((await checkpoint).treeSize, leaves.length);
    assert.ok(turnedBefore, 'a callback of the next turn ran before the log had caught up');
  });
});
