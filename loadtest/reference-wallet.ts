import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerLine } from '../src/protocol/operator-api';
import { redisClient, type RedisTarget } from '../src/server/redis-client';
import { reconcile, type Difference } from '../src/wallet/reconcile';
import { ledgerLines } from '../src/wallet/seamless/ledger';
import { RedisWalletTransactions } from '../src/wallet/seamless/redis-wallet-transactions';
import type { WalletTx } from '../src/wallet/seamless/wallet-transactions';
import { ReferenceOperator } from '../tools/reference-operator';
import { randomToken } from './server-env';
import type { OperatorSignIn } from './player';

/** Every account's opening balance at the reference operator: no synthetic player runs out. */
const OPENING_BALANCE = 100_000_000;
/** The servers' wallet timeout in a chaos run: short, so that a held call is undecided soon. */
const WALLET_TIMEOUT_MS = 1000;
/** The longest wallet outage of a run (the 30 seconds), shorter in a short run. */
const OUTAGE_MAX_S = 30;

/**
 * The players' wallet of `--wallet seamless` runs: the reference operator (examples/operator/),
 * a real process with its own ledger. The load test has it answer after a steady latency; the
 * chaos run makes it misbehave through the run — a background of faults (timeouts and 5xx after the movement,
 * answers dropped or garbled after it, duplicate deliveries, connections reset), an outage, a
 * kill -9 and restart — while the servers and Redis take the run's own faults. After the drain:
 * no movement left undecided, every prize paid, and the two ledgers reconciled to the cent.
 */
export class ReferenceWallet {
  private timers: NodeJS.Timeout[] = [];
  /** What was done to the wallet, for the report. */
  readonly injected: string[] = [];

  private constructor(
    private readonly operator: ReferenceOperator,
    private readonly dir: string,
    readonly secret: string,
    private readonly seed: number,
    private readonly log: (line: string) => void,
  ) {}

  static async start(seed: number, log: (line: string) => void): Promise<ReferenceWallet> {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-wallet-'));
    const secret = randomToken(36);
    const operator = await ReferenceOperator.start({
      ledger: join(dir, 'ledger.ndjson'),
      secret,
      adminToken: randomToken(),
      env: { OPERATOR_AUTO_CREATE: '1', START_BALANCE_CENTS: String(OPENING_BALANCE) },
    });
    log(`seamless wallet: the reference operator on port ${operator.port}, its ledger in ${dir}`);
    return new ReferenceWallet(operator, dir, secret, seed, log);
  }

  /** The servers' settings: their players' money at the reference operator. */
  serverEnv(): Record<string, string> {
    return { WALLET_MODE: 'seamless', WALLET_URL: `http://127.0.0.1:${this.operator.port}/wallet`, OPERATOR_SECRET: this.secret, WALLET_TIMEOUT_MS: String(WALLET_TIMEOUT_MS), DEV_LOGIN: 'false' };
  }

  signIn(jwtSecret: string): OperatorSignIn {
    return { jwtSecret, openingBalance: OPENING_BALANCE };
  }

  /** Every call answered after `ms` (the load test's wallet), and nothing else. */
  async steady(ms: number): Promise<void> {
    const { status } = await this.operator.admin('POST', '/admin/faults', { seed: String(this.seed), rules: [{ fault: 'latency', ms, probability: 1 }] });
    if (status !== 200) throw new Error(`the reference operator refused the latency (HTTP ${status})`);
  }

  /** The operator's ledger against the server's lines: every difference. */
  async differences(server: readonly LedgerLine[]): Promise<readonly Difference[]> {
    return reconcile(server, await this.operator.ledger()).differences;
  }

  /** The background of faults, from the run's seed: each call has a few percent of chance to meet one. */
  private async background(): Promise<void> {
    const rules = [
      { fault: 'latency', ms: 20, probability: 1 },
      { fault: 'timeout', apply: true, probability: 0.01 },
      { fault: 'timeout', probability: 0.01 },
      { fault: 'status', status: 503, apply: true, probability: 0.01 },
      { fault: 'status', status: 500, probability: 0.01 },
      { fault: 'drop', probability: 0.01 },
      { fault: 'garble', probability: 0.005 },
      { fault: 'duplicate', probability: 0.02 },
      { fault: 'reset', probability: 0.01 },
    ];
    const { status } = await this.operator.admin('POST', '/admin/faults', { seed: String(this.seed), rules });
    if (status !== 200) throw new Error(`the reference operator refused the fault plan (HTTP ${status})`);
  }

  /** The wallet's faults over a window of `spanMs`: the background at once, an outage at 30 %, a kill and restart at 65 %. */
  async startFaults(spanMs: number): Promise<void> {
    await this.background();
    this.injected.push('background faults');
    const outageS = Math.max(5, Math.min(OUTAGE_MAX_S, Math.round(spanMs / 4000)));
    this.at(spanMs * 0.3, async () => {
      const { status } = await this.operator.admin('POST', '/admin/faults', { seed: String(this.seed), rules: [], outage: { seconds: outageS, mode: 'reset' } });
      if (status === 200) this.injected.push(`outage ${outageS} s`);
      this.log(`seamless wallet: outage of ${outageS} s`);
      this.at(outageS * 1000 + 500, () => this.background());
    });
    this.at(spanMs * 0.65, async () => {
      await this.operator.kill();
      this.log('seamless wallet: the reference operator killed (SIGKILL), restarting on its ledger');
      await this.operator.restart();
      await this.background();
      this.injected.push('kill -9 and restart');
    });
  }

  private at(ms: number, action: () => Promise<void>): void {
    this.timers.push(setTimeout(() => action().catch((err: unknown) => this.log(`seamless wallet: a fault failed: ${(err as Error).message}`)), ms));
  }

  /** Ends the faults: the wallet answers cleanly from now on. */
  async stopFaults(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    await this.operator.admin('DELETE', '/admin/faults').catch(() => undefined);
  }

  /**
   * After the drain: waits (bounded) until the servers' outbox has nothing left to send, then
   * reconciles the two ledgers. Problems: movements still undecided, credits unpaid, and
   * every difference between the ledgers.
   */
  async check(target: RedisTarget, prefix: string, timeoutMs: number): Promise<WalletCheck> {
    const client = redisClient(target);
    try {
      const outbox = new RedisWalletTransactions(client, prefix);
      const deadline = performance.now() + timeoutMs;
      let left = await outbox.due(Number.MAX_SAFE_INTEGER, 1000);
      while (left.length > 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        left = await outbox.due(Number.MAX_SAFE_INTEGER, 1000);
      }
      const records = await outbox.created(0, Number.MAX_SAFE_INTEGER);
      const ours = ledgerLines(records);
      const theirs = await this.operator.ledger();
      const differences = reconcile(ours, theirs).differences;
      return summary(records, left, theirs, differences, this.injected);
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    await this.stopFaults();
    await this.operator.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface WalletCheck {
  readonly faults: readonly string[];
  readonly debits: number;
  readonly dealt: number;
  readonly refused: number;
  readonly rolledBack: number;
  readonly credits: number;
  readonly creditsPaid: number;
  /** Movements not decided after the drain (debits in flight, rollbacks or credits unacknowledged). */
  readonly undecided: number;
  readonly operatorMovements: number;
  readonly differences: number;
  readonly problems: readonly string[];
}

function summary(records: readonly WalletTx[], left: readonly WalletTx[], theirs: readonly LedgerLine[], differences: readonly Difference[], faults: readonly string[]): WalletCheck {
  const count = (f: (tx: WalletTx) => boolean) => records.filter(f).length;
  const problems = [
    ...left.slice(0, 10).map((tx) => `wallet: ${tx.kind} ${tx.id} of ${tx.player} still ${tx.state} after the drain (${tx.attempts} attempts, last: ${tx.lastError || 'none'})`),
    ...differences.slice(0, 20).map((d) => `wallet ledgers differ: ${JSON.stringify(d)}`),
  ];
  return {
    faults,
    debits: count((tx) => tx.kind === 'debit'),
    dealt: count((tx) => tx.state === 'dealt'),
    refused: count((tx) => tx.state === 'refused'),
    rolledBack: count((tx) => tx.state === 'rolled_back'),
    credits: count((tx) => tx.kind === 'credit'),
    creditsPaid: count((tx) => tx.state === 'credited'),
    undecided: left.length,
    operatorMovements: theirs.length,
    differences: differences.length,
    problems,
  };
}
