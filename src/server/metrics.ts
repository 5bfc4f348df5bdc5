import { createServer, type Server as HttpServer } from 'node:http';
import { matchMaker } from '@colyseus/core';
import type { Emissions } from '../dealer/types';
import { archiveLagMs } from '../archive/lag';
import type { ArchiveOutbox } from '../dealer/outbox';
import type { RedisClient } from '../redis-scripts/loader';
import type { ReadinessProbe } from './readiness';
import type { WalletTransactions } from '../wallet/seamless/wallet-transactions';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (prefix `lottery_`), on a registry of its own so that
 * several servers in one process (tests) do not share counters. docs/operations.md lists each
 * metric with its labels and the alert rules that go with them.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly unitsSold: Counter<'game' | 'stake'>;
  readonly prizesPaidCents: Counter<'game' | 'stake'>;
  readonly prizesPaid: Counter<'game' | 'stake'>;
  readonly purchasesRefused: Counter<'code'>;
  readonly purchaseSeconds: Histogram;
  readonly actionToPatchSeconds: Histogram<'game'>;
  readonly feedDelaySeconds: Histogram;
  readonly spectatorFramesCoalesced: Counter<'room'>;
  readonly redisErrors: Counter;
  readonly redisReconnects: Counter;
  readonly storeErrors: Counter<'operation'>;
  readonly httpResponses: Counter<'class'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'lottery_' });
    this.unitsSold = new Counter({ name: 'lottery_units_sold_total', help: 'Units sold (a repeated request counts once)', labelNames: ['game', 'stake'], registers });
    this.prizesPaidCents = new Counter({ name: 'lottery_prizes_paid_cents_total', help: 'Prizes credited, in cents, each unit once', labelNames: ['game', 'stake'], registers });
    this.prizesPaid = new Counter({ name: 'lottery_prizes_paid_total', help: 'Winning units credited', labelNames: ['game', 'stake'], registers });
    this.purchasesRefused = new Counter({ name: 'lottery_purchases_refused_total', help: 'Purchases refused, by code', labelNames: ['code'], registers });
    this.purchaseSeconds = new Histogram({
      name: 'lottery_purchase_seconds',
      help: 'Time of one purchase in the dealer store (the Lua script and its round trips in Redis mode)',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.actionToPatchSeconds = new Histogram({
      name: 'lottery_action_to_patch_seconds',
      help: 'From a player action received to the state patch that shows it sent',
      labelNames: ['game'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    });
    this.feedDelaySeconds = new Histogram({
      name: 'lottery_feed_delay_seconds',
      help: 'From a unit finished to its win sent to feed spectators',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.spectatorFramesCoalesced = new Counter({
      name: 'lottery_spectator_frames_coalesced_total',
      help: 'Frames not sent to a spectator whose socket was behind (it got the latest state once caught up), by room type',
      labelNames: ['room'],
      registers,
    });
    this.redisErrors = new Counter({ name: 'lottery_redis_errors_total', help: 'Errors reported by the Redis client', registers });
    this.redisReconnects = new Counter({ name: 'lottery_redis_reconnects_total', help: 'Reconnections of the Redis client', registers });
    this.storeErrors = new Counter({ name: 'lottery_store_errors_total', help: 'Purchases, settlements, deposits and withdrawals the dealer store failed (an outage, a reply it did not expect), by operation', labelNames: ['operation'], registers });
    this.httpResponses = new Counter({ name: 'lottery_http_responses_total', help: 'HTTP answers of the routes, by status class (2xx, 4xx, 5xx, …)', labelNames: ['class'], registers });

    // Rooms and people of this process, read from the matchmaker's listing at each scrape.
    // Rooms and people are read from the matchmaker's listing, once per scrape for all four.
    let census: { at: number; rooms: Promise<RoomCensus> } | undefined;
    const take = (): Promise<RoomCensus> => {
      if (!census || Date.now() - census.at > 1000) census = { at: Date.now(), rooms: roomCensus() };
      return census.rooms;
    };
    new Gauge({
      name: 'lottery_rooms',
      help: 'Rooms of this process, by room type',
      labelNames: ['room'],
      registers,
      async collect() {
        const { perType } = await take();
        this.reset();
        for (const [room, count] of perType) this.set({ room }, count);
      },
    });
    const people = (name: string, help: string, field: 'players' | 'watchers' | 'feedSpectators') =>
      new Gauge({ name, help, registers, async collect() { this.set((await take())[field]); } });
    people('lottery_players', 'Players at a table in this process', 'players');
    people('lottery_watchers', 'Spectators watching a table in this process', 'watchers');
    people('lottery_feed_spectators', 'Spectators of the wins feed in this process', 'feedSpectators');
  }

  /** `lottery_ready`: 1 while the process takes players (what `/ready` answers), read at each scrape. */
  watchReadiness(probe: ReadinessProbe): void {
    new Gauge({ name: 'lottery_ready', help: 'Whether this process takes players (1) or not (0), as /ready answers', registers: [this.registry], async collect() {
      this.set((await probe.check().catch(() => ({ ready: false }))).ready ? 1 : 0);
    } });
  }

  /**
   * The stock of every game and price, read from the emissions at most every 10 s:
   * `lottery_stock_units` (units left unsold in its emissions) and `lottery_block_units` (the
   * units of one of its blocks), so that an alert can tell an emission selling its last block.
   */
  watchStock(emissions: Pick<Emissions, 'listEmissions'>): void {
    let read: { at: number; stock: Promise<Map<string, { left: number; block: number }>> } | undefined;
    const stock = () => {
      if (!read || Date.now() - read.at > 10_000) read = { at: Date.now(), stock: stockOf(emissions) };
      return read.stock;
    };
    const gauge = (name: string, help: string, field: 'left' | 'block') => new Gauge({ name, help, labelNames: ['game', 'stake'], registers: [this.registry], async collect() {
      const byTable = await stock().catch(() => new Map<string, { left: number; block: number }>());
      this.reset();
      for (const [table, units] of byTable) {
        const [game, stake] = table.split(':');
        this.set({ game: game!, stake: stake! }, units[field]);
      }
    } });
    gauge('lottery_stock_units', 'Units left unsold in the emissions of a game and price', 'left');
    gauge('lottery_block_units', 'Units in one block of a game and price', 'block');
  }

  /**
   * The archive's lag (docs/archive.md, "The writer"), read from the outbox at each scrape: it
   * grows while no writer drains, whatever the writer's process says. A read that fails (Redis
   * away) keeps the value before, so that the scrape still answers.
   */
  watchArchive(outbox: ArchiveOutbox): void {
    new Gauge({
      name: 'lottery_archive_lag_seconds',
      help: 'Age of the oldest entry waiting in the archive outbox (0: everything is sealed); grows while no archive writer drains it',
      registers: [this.registry],
      async collect() {
        await archiveLagMs(outbox, Date.now()).then((lag) => this.set(lag / 1000), () => undefined);
      },
    });
  }

  /**
   * The operator's wallet (WALLET_MODE=seamless): `lottery_wallet_calls_total{call, outcome}`
   * (outcome ok, refused or undecided) and `lottery_wallet_call_seconds{call}`. What it returns
   * is told each call.
   */
  walletCalls(): (call: string, outcome: string, ms: number) => void {
    const registers = [this.registry];
    const calls = new Counter({ name: 'lottery_wallet_calls_total', help: "Calls to the operator's wallet, by call and outcome (ok, refused, undecided)", labelNames: ['call', 'outcome'], registers });
    const seconds = new Histogram({ name: 'lottery_wallet_call_seconds', help: "Time the operator's wallet took to answer, by call", labelNames: ['call'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
    return (call, outcome, ms) => {
      calls.inc({ call, outcome });
      seconds.observe({ call }, ms / 1000);
    };
  }

  /**
   * How late the seamless wallet's outbox is sent (`lottery_wallet_outbox_overdue_seconds`), read
   * at each scrape: the time past its send of the earliest movement not final (a rollback or a
   * credit unacknowledged, a debit whose process was cut). Each process sends what is due every
   * second, one movement after another, and puts a failed send off (1 s, 2 s, … 5 min): it stays
   * near 0 while the sending keeps up. A read that fails keeps the value before.
   */
  watchWalletOutbox(outbox: Pick<WalletTransactions, 'earliestDue'>, now: () => number): void {
    new Gauge({
      name: 'lottery_wallet_outbox_overdue_seconds',
      help: "Time past its send of the earliest movement waiting in the operator's wallet outbox (0: none overdue); grows while the sending does not keep up",
      registers: [this.registry],
      async collect() {
        await outbox.earliestDue().then((due) => this.set(due === undefined ? 0 : Math.max(0, now() - due) / 1000), () => undefined);
      },
    });
  }

  /** Counts the errors and reconnections of a Redis client (every failed attempt is an error). */
  watchRedis(redis: RedisClient): void {
    redis.on('error', () => this.redisErrors.inc());
    redis.on('reconnecting', () => this.redisReconnects.inc());
  }
}

/** Units left unsold per `<game>:<stake>`, over every emission of it, and the size of its blocks. */
async function stockOf(emissions: Pick<Emissions, 'listEmissions'>): Promise<Map<string, { left: number; block: number }>> {
  const byTable = new Map<string, { left: number; block: number }>();
  for (const emission of await emissions.listEmissions()) {
    const table = `${emission.game}:${emission.stake}`;
    const sold = emission.blocks.reduce((sum, block) => sum + block.sold, 0);
    const left = emission.blockCount * emission.table.blockSize - sold;
    byTable.set(table, { left: (byTable.get(table)?.left ?? 0) + left, block: emission.table.blockSize });
  }
  return byTable;
}

interface RoomCensus {
  readonly perType: Map<string, number>;
  readonly players: number;
  readonly watchers: number;
  readonly feedSpectators: number;
}

async function roomCensus(): Promise<RoomCensus> {
  const perType = new Map<string, number>();
  let players = 0;
  let watchers = 0;
  let feedSpectators = 0;
  for (const room of await matchMaker.query({ processId: matchMaker.processId })) {
    perType.set(room.name, (perType.get(room.name) ?? 0) + 1);
    if (room.name === 'table') players += room.clients;
    else if (room.name === 'watch') watchers += room.clients;
    else if (room.name === 'feed') feedSpectators += room.clients;
  }
  return { perType, players, watchers, feedSpectators };
}

/** `/metrics` on a port of its own, on loopback only (METRICS_PORT): no token needed there. */
export async function listenMetrics(metrics: Metrics, port: number): Promise<HttpServer> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}
