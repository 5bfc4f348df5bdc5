import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { leafSchemeOf } from '../../../src/fairness/merkle';
import { tierCounts, UNSOLD, verifyBlock } from '../../../src/fairness/printing';
import { assertPagesLogged } from './page-log-check';
import { RedisStore } from '../../../src/dealer/redis/store';
import type { Sale } from '../../../src/dealer/types';
import { prizeOfTier, totalPaid } from '../../../src/games/prize-tables';
import type { PrizeTable } from '../../../src/games/types';
import type { RedisServer } from '../../../tools/redis-server';
import { connectProof, playerOf, requestOf, type DealerProcessArgs, type ProofTarget } from './dealer-process';
import type { RedisClient } from '../../../src/redis-scripts/loader';

/**
 * The machinery of the proofs of issue §5, shared by the always-on runs (test/dealer) and the
 * full-block runs (test-long): dealers as separate processes, and the checks that a block was
 * dealt exactly (every position once, counts per tier as the table, money balanced).
 */

const DEALER_SCRIPT = fileURLToPath(new URL('./dealer-process.ts', import.meta.url));
const CHUNK = 5_000;
const SALE_SAMPLE = 20_000;

export const PLAYERS_PER_DEALER = 25;

/** A dealer process and what it acknowledged: request number → unit id. */
export class DealerProcess {
  readonly acks = new Map<number, string>();
  replays = 0;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: DealerProcessArgs) {
    this.child = spawn(process.execPath, ['--import', 'tsx', DEALER_SCRIPT, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    let errors = '';
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('ack ')) continue;
        const [, k, unitId, replayed] = line.split(' ');
        this.acks.set(Number(k), unitId!);
        if (replayed === '1') this.replays++;
      }
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        if (code !== 0 && signal !== 'SIGKILL') process.stderr.write(`dealer ${args.worker} exited ${code}:\n${errors}\n`);
        resolve(code);
      }),
    );
  }

  /** Kills it at once, as a crash would: answers in flight and unflushed acks are lost. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** The first request number without an ack: where a restarted dealer starts again. */
  firstUnacked(): number {
    let k = 0;
    while (this.acks.has(k)) k++;
    return k;
  }
}

export interface ProofSetup {
  readonly store: RedisStore;
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly players: readonly string[];
  readonly deposit: number;
  close(): Promise<void>;
}

let proofs = 0;

/** A fresh prefix with one emission of `table` open and every player funded for the whole block. */
export async function setUpProof(target: ProofTarget, table: PrizeTable, blockCount: number, dealers: number): Promise<ProofSetup> {
  const prefix = `proof${++proofs}-${process.pid}`;
  const { redis, options } = connectProof(target);
  redis.on('error', () => undefined); // proof (c) kills Redis on purpose; commands still fail loudly
  const store = new RedisStore(redis, { prefix, ...options });
  await store.emissions.openEmission({ emissionId: 'noel-proof', table, blockCount, now: Date.now() });
  const players = Array.from({ length: dealers }, (_, w) => Array.from({ length: PLAYERS_PER_DEALER }, (_, p) => playerOf(w, p, PLAYERS_PER_DEALER))).flat();
  const deposit = table.blockSize * blockCount * table.stake;
  await Promise.all(players.map((p) => store.wallets.deposit(p, deposit, 'start', Date.now())));
  return {
    store,
    redis,
    prefix,
    players,
    deposit,
    async close() {
      await store.close();
      await redis.quit();
    },
  };
}

export function dealerArgs(target: ProofTarget, setup: ProofSetup, table: PrizeTable, worker: number, from = 0, inFlight = 32): DealerProcessArgs {
  return { target: 'url' in target ? { url: target.url } : target, prefix: setup.prefix, game: table.game, stake: table.stake, worker, from, players: PLAYERS_PER_DEALER, inFlight };
}

/** The player a proof's request is made for: `w<worker>-<k>` by the dealer processes, `c-<k>` by the crash proof. */
function playerOfRequest(requestId: string): string {
  const [who, k] = requestId.split('-') as [string, string];
  const worker = who === 'c' ? Number(k) % 4 : Number(who.slice(1));
  const n = who === 'c' ? Math.floor(Number(k) / 4) : Number(k);
  return playerOf(worker, n, PLAYERS_PER_DEALER);
}

/** Acked request ids with their units, from every dealer (a killed one and its restart merged). */
export function ackedUnits(dealers: readonly (readonly DealerProcess[])[]): Map<string, string> {
  const acked = new Map<string, string>();
  dealers.forEach((runs, worker) => {
    for (const run of runs) for (const [k, unitId] of run.acks) acked.set(requestOf(worker, k), unitId);
  });
  return acked;
}

/**
 * Checks that the emission's blocks were dealt exactly: each block closed and verified from its
 * revealed seed, every position sold once, the counts per tier as the table; every acked unit
 * debited once, to the player of its request, and the request recorded with its sale; each
 * player's journal sums to the balance, which is the deposit less stakes plus prizes; when
 * `settled`, each prize credited once and nothing left unsettled.
 */
export async function assertDealtExactly(
  setup: ProofSetup,
  table: PrizeTable,
  acked: ReadonlyMap<string, string>,
  { settled }: { readonly settled: boolean },
): Promise<void> {
  const { store } = setup;
  const emission = (await store.emissions.listEmissions()).find((e) => e.emissionId === 'noel-proof')!;
  assert.equal(emission.blocks.length, emission.blockCount);
  const expectedUnits = new Set<string>();
  const recorded = new Map<string, Uint8Array>();
  for (const block of emission.blocks) {
    assert.equal(block.state, 'closed', `${block.blockId} closed`);
    assert.equal(block.sold, table.blockSize);
    assert.deepEqual(block.soldPerTier, tierCounts(table), `${block.blockId}: counts per tier as the table`);
    const tiers = (await store.pages.recordedTiers(block.blockId))!;
    assert.equal(tiers.indexOf(UNSOLD), -1, `${block.blockId}: every position sold`);
    const check = verifyBlock({ table, seed: Buffer.from(block.seed!, 'hex'), commitment: block.commitment, scheme: leafSchemeOf(block), recordedTiers: tiers, requireAllSold: true });
    assert.deepEqual(check.problems, [], `${block.blockId} verifies`);
    recorded.set(block.blockId, tiers);
    for (let p = 0; p < table.blockSize; p++) expectedUnits.add(`${block.blockId}:${p}`);
  }

  // Every page the dealers published is in the log of page roots, once, in page order.
  await assertPagesLogged(store, emission.blocks);

  // Every sale acknowledged, each unit to one request only.
  const ackedUnits = new Set(acked.values());
  assert.equal(ackedUnits.size, acked.size, 'no unit acknowledged to two requests');
  assert.equal(acked.size, expectedUnits.size, 'every unit acknowledged');
  for (const unitId of ackedUnits) assert.ok(expectedUnits.has(unitId), `${unitId} is a unit of the emission`);
  // Every ack is checked against its player's journal below; on a full block, every
  // SALE_SAMPLE-th is also read back whole (reading 800,000 sales would double the run).
  const every = Math.max(1, Math.floor(acked.size / SALE_SAMPLE));
  const entries = [...acked].filter((_, i) => i % every === 0);
  for (let i = 0; i < entries.length; i += CHUNK) {
    const sales = await Promise.all(entries.slice(i, i + CHUNK).map(([, unitId]) => store.sales.getSale(unitId)));
    sales.forEach((sale: Sale | undefined, j) => {
      const [requestId, unitId] = entries[i + j]!;
      assert.ok(sale, `${unitId} has a sale`);
      assert.equal(sale.requestId, requestId, `${unitId} sold to ${requestId}`);
      assert.equal(sale.tierId, recorded.get(sale.blockId)![sale.position]);
    });
  }

  // Journals: every position debited once, every prize credited once, every wallet balanced.
  const staked = new Map<string, string>();
  const credited = new Set<string>();
  let paid = 0;
  for (let i = 0; i < setup.players.length; i += 100) {
    const players = setup.players.slice(i, i + 100);
    const [journals, balances] = await Promise.all([
      Promise.all(players.map((p) => store.wallets.journal(p))),
      Promise.all(players.map((p) => store.wallets.balance(p))),
    ]);
    players.forEach((player, j) => {
      const journal = journals[j]!;
      let sum = 0;
      let stakes = 0;
      let prizes = 0;
      for (const entry of journal) {
        sum += entry.amount;
        assert.equal(entry.balance, sum, `${player} journal line ${entry.seq} carries its running balance`);
        if (entry.kind === 'stake') {
          assert.ok(!staked.has(entry.ref), `${entry.ref} debited twice`);
          staked.set(entry.ref, player);
          stakes += entry.amount;
        } else if (entry.kind === 'prize') {
          assert.ok(!credited.has(entry.ref), `${entry.ref} credited twice`);
          credited.add(entry.ref);
          const [blockId, position] = [entry.ref.slice(0, entry.ref.lastIndexOf(':')), Number(entry.ref.slice(entry.ref.lastIndexOf(':') + 1))];
          assert.equal(entry.amount, prizeOfTier(table, recorded.get(blockId)![position]!));
          prizes += entry.amount;
        }
      }
      assert.equal(sum, balances[j], `${player}: journal sums to the balance`);
      assert.equal(balances[j], setup.deposit + stakes + prizes, `${player}: deposit − stakes + prizes`);
      paid += prizes;
    });
  }
  assert.equal(staked.size, expectedUnits.size, 'every unit debited once');
  for (const [requestId, unitId] of acked) {
    assert.equal(staked.get(unitId), playerOfRequest(requestId), `${unitId} debited to the player of ${requestId}`);
  }
  if (settled) {
    assert.equal(paid, totalPaid(table) * emission.blockCount, 'every prize of the table credited once');
    assert.deepEqual(await store.sales.unsettledSales(Number.MAX_SAFE_INTEGER, 10), [], 'every unit settled');
  } else {
    assert.equal(paid, 0, 'no prize credited before settlement');
  }
}

export interface ProofRun {
  /** Time from the first purchase to the last dealer's exit. */
  readonly dealtMs: number;
  /** Purchases answered `repeated`: retries of requests whose ack was lost. */
  readonly replays: number;
}

/**
 * Proof (a), and (b) with `killOne`: four dealer processes deal `blockCount` blocks (default
 * one) through Redis; with `killOne`, dealer 0 is SIGKILLed a third of the way and restarted at
 * its first unacked request.
 */
export async function proveFourDealers(target: ProofTarget, table: PrizeTable, killOne: boolean, blockCount = 1): Promise<ProofRun> {
  const setup = await setUpProof(target, table, blockCount, 4);
  try {
    const started = performance.now();
    const runs = [0, 1, 2, 3].map((w) => [new DealerProcess(dealerArgs(target, setup, table, w))]);
    const acks = () => runs.reduce((n, r) => n + r.reduce((m, d) => m + d.acks.size, 0), 0);
    if (killOne) {
      await until(() => acks() >= (table.blockSize * blockCount) / 3);
      const victim = runs[0]![0]!;
      await victim.kill();
      runs[0]!.push(new DealerProcess(dealerArgs(target, setup, table, 0, victim.firstUnacked())));
    }
    const codes = await Promise.all(runs.map((r) => r[r.length - 1]!.exited));
    assert.deepEqual(codes, [0, 0, 0, 0], 'every dealer ran to the end of the block');
    const dealtMs = performance.now() - started;
    await assertDealtExactly(setup, table, ackedUnits(runs), { settled: true });
    return { dealtMs, replays: runs.flat().reduce((n, d) => n + d.replays, 0) };
  } finally {
    await setup.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Proof (c): four dealers (connections) buy from `blockCount` blocks through a Redis with
 * appendfsync always; a third of the way Redis is SIGKILLed and restarted. Every purchase
 * acknowledged before the crash must still be there, the sold positions must still be a prefix
 * of the block sequence, and dealing must go on to the end exactly.
 */
export async function proveRedisCrash(server: RedisServer, table: PrizeTable, blockCount: number): Promise<ProofRun> {
  const setup = await setUpProof(server, table, blockCount, 4);
  const clients = [0, 1, 2, 3].map(() => new Redis(server.url, { enableAutoPipelining: true }));
  for (const client of clients) client.on('error', () => undefined); // the crash is the point
  const stores = clients.map((c) => new RedisStore(c, { prefix: setup.prefix }));
  try {
    const total = table.blockSize * blockCount;
    const acked = new Map<string, Sale>();
    let replays = 0;
    let next = 0;
    let closed = false;
    let paused = false;
    const lane = async () => {
      while (!closed) {
        const k = next++;
        const requestId = `c-${k}`;
        for (;;) {
          while (paused) await sleep(10);
          let result;
          try {
            result = await stores[k % 4]!.sales.purchase({
              playerId: playerOf(k % 4, Math.floor(k / 4), PLAYERS_PER_DEALER),
              requestId,
              game: table.game,
              stake: table.stake,
              now: Date.now(),
            });
          } catch {
            await sleep(50); // Redis is down: retry the same request id
            continue;
          }
          if (result.ok) {
            acked.set(requestId, result.sale);
            if (result.repeated) replays++;
          } else {
            assert.equal(result.code, 'purchase/game_closed');
            closed = true;
          }
          break;
        }
      }
    };
    const started = performance.now();
    const lanes = Array.from({ length: 64 }, lane);

    await until(() => acked.size >= total / 3);
    await server.kill();
    const ackedBeforeCrash = new Map(acked);
    paused = true;
    await server.restart();
    const found = await Promise.all([...ackedBeforeCrash.values()].map((sale) => setup.store.sales.getSale(sale.unitId)));
    [...ackedBeforeCrash].forEach(([requestId, sale], i) => {
      assert.deepEqual(found[i], sale, `${requestId}: acknowledged before the crash, still there`);
    });
    const emission = (await setup.store.emissions.listEmissions()).find((e) => e.emissionId === 'noel-proof')!;
    const sold = emission.blocks.reduce((n, b) => n + b.sold, 0);
    assert.ok(sold >= ackedBeforeCrash.size);
    let left = sold;
    for (const block of emission.blocks) {
      const tiers = (await setup.store.pages.recordedTiers(block.blockId))!;
      const prefix = Math.min(left, table.blockSize);
      assert.equal(tiers.indexOf(UNSOLD), prefix === table.blockSize ? -1 : prefix, `${block.blockId}: sold positions are 0..${prefix - 1}`);
      assert.ok(tiers.subarray(prefix).every((t) => t === UNSOLD));
      left -= prefix;
    }
    paused = false;
    await Promise.all(lanes);
    const dealtMs = performance.now() - started;
    // Settlement is proven by the dealer-process proofs; here the units stay unsettled.
    await assertDealtExactly(setup, table, new Map([...acked].map(([r, s]) => [r, s.unitId])), { settled: false });
    return { dealtMs, replays };
  } finally {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(clients.map((c) => c.quit()));
    await setup.close();
  }
}

/** Resolves once `condition()` holds, checking every 10 ms. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
