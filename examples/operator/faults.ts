import { createHash } from 'node:crypto';
import { WALLET_ERROR_CODES, type WalletCall, type WalletErrorCode } from '../../src/protocol/operator-api';
import { nonceFor, Rng } from '../../src/random/rng';

/**
 * Faults the reference operator injects into its wallet calls on request (docs/integration.md,
 * "Fault injection"): a plan of rules, each for some calls, firing with a probability and/or for
 * a count of calls, decided by a ChaCha20 stream keyed by SHA-256 of the plan's seed, so that a
 * run is reproduced from its seed (for the same order of calls); and an outage of some seconds.
 */

export const FAULT_KINDS = ['latency', 'timeout', 'status', 'drop', 'garble', 'duplicate', 'refuse', 'reset'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  readonly fault: FaultKind;
  /** The calls it applies to; absent: all four. */
  readonly calls?: readonly WalletCall[];
  /** Each matching call, with this probability (0–1). */
  readonly probability?: number;
  /** The next this many matching calls (with a probability too: at most this many). */
  readonly count?: number;
  /** latency: the delay added before the call is handled. */
  readonly ms?: number;
  /** status: the 5xx answered (default 500). */
  readonly status?: number;
  /** refuse: the refusal answered (nothing moves, nothing is kept for that id). */
  readonly code?: WalletErrorCode;
  /** timeout and status: apply the movement first, then fail to answer it. */
  readonly apply?: boolean;
}

export interface OutagePlan {
  readonly seconds: number;
  /** reset: connections cut at once; status: every call answered 503. */
  readonly mode: 'reset' | 'status';
  readonly calls?: readonly WalletCall[];
}

export interface FaultPlan {
  readonly seed: string;
  readonly rules: readonly FaultRule[];
  readonly outage?: OutagePlan;
}

/** What to do with one call: a delay, then at most one fault. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly fault?: FaultRule;
}

const CALLS: readonly WalletCall[] = ['balance', 'debit', 'credit', 'rollback'];
/** Probabilities are drawn as integers out of this, so that no float threshold decides. */
const PROBABILITY_SCALE = 1_000_000;

export class Faults {
  private rng = new Rng(createHash('sha256').update('').digest(), nonceFor('faults'));
  private rules: { rule: FaultRule; left: number }[] = [];
  private outage: { until: number; plan: OutagePlan } | undefined;
  private seed = '';
  /** Faults injected since the plan was set, by `<call>:<fault>`. */
  private injected = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  set(plan: FaultPlan): void {
    this.seed = plan.seed;
    this.rng = new Rng(createHash('sha256').update(plan.seed).digest(), nonceFor('faults'));
    this.rules = plan.rules.map((rule) => ({ rule, left: rule.count ?? Infinity }));
    this.outage = plan.outage && { until: this.now() + plan.outage.seconds * 1000, plan: plan.outage };
    this.injected.clear();
  }

  clear(): void {
    this.set({ seed: '', rules: [] });
  }

  /** The outage's mode if `call` falls in one now. */
  outageFor(call: WalletCall): OutagePlan['mode'] | undefined {
    if (!this.outage || this.now() >= this.outage.until || !(this.outage.plan.calls ?? CALLS).includes(call)) return undefined;
    this.count(call, 'outage');
    return this.outage.plan.mode;
  }

  decide(call: WalletCall): FaultDecision {
    let latencyMs = 0;
    let fault: FaultRule | undefined;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.left <= 0 || !(rule.calls ?? CALLS).includes(call)) continue;
      if (rule.fault !== 'latency' && fault) continue;
      if (rule.probability !== undefined && !this.rng.chance(Math.round(rule.probability * PROBABILITY_SCALE), PROBABILITY_SCALE)) continue;
      entry.left--;
      this.count(call, rule.fault);
      if (rule.fault === 'latency') latencyMs += rule.ms ?? 0;
      else fault = rule;
    }
    return fault ? { latencyMs, fault } : { latencyMs };
  }

  /** The plan as it stands, for GET /admin/faults. */
  state(): object {
    return {
      seed: this.seed,
      rules: this.rules.map(({ rule, left }) => ({ ...rule, ...(Number.isFinite(left) ? { left } : {}) })),
      outage: this.outage && { ...this.outage.plan, until: new Date(this.outage.until).toISOString(), active: this.now() < this.outage.until },
      injected: Object.fromEntries(this.injected),
    };
  }

  private count(call: WalletCall, fault: string): void {
    const key = `${call}:${fault}`;
    this.injected.set(key, (this.injected.get(key) ?? 0) + 1);
  }
}

/** A plan read from an admin request's body, or an Error saying what is wrong with it. */
export function parseFaultPlan(value: unknown): FaultPlan {
  const plan = value as Partial<FaultPlan> | null;
  if (typeof plan !== 'object' || plan === null) throw new Error('the plan is a JSON object { seed, rules, outage? }');
  if (typeof plan.seed !== 'string' || plan.seed === '') throw new Error('seed: a non-empty string');
  if (!Array.isArray(plan.rules)) throw new Error('rules: an array');
  plan.rules.forEach((rule, i) => checkRule(rule, `rules[${i}]`));
  if (plan.outage !== undefined) {
    const { seconds, mode, calls } = plan.outage;
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) throw new Error('outage.seconds: a number in (0, 86400]');
    if (mode !== 'reset' && mode !== 'status') throw new Error('outage.mode: reset or status');
    checkCalls(calls, 'outage.calls');
  }
  return plan as FaultPlan;
}

function checkRule(rule: FaultRule, at: string): void {
  if (typeof rule !== 'object' || rule === null) throw new Error(`${at}: an object`);
  if (!(FAULT_KINDS as readonly string[]).includes(rule.fault)) throw new Error(`${at}.fault: one of ${FAULT_KINDS.join(', ')}`);
  checkCalls(rule.calls, `${at}.calls`);
  if (rule.probability === undefined && rule.count === undefined) throw new Error(`${at}: a probability, a count, or both`);
  if (rule.probability !== undefined && !(rule.probability >= 0 && rule.probability <= 1)) throw new Error(`${at}.probability: a number in [0, 1]`);
  if (rule.count !== undefined && !(Number.isSafeInteger(rule.count) && rule.count >= 0)) throw new Error(`${at}.count: a whole number`);
  if (rule.fault === 'latency' && !(Number.isSafeInteger(rule.ms) && rule.ms! >= 0 && rule.ms! <= 600_000)) throw new Error(`${at}.ms: a whole number of ms up to 600000`);
  if (rule.status !== undefined && !(Number.isSafeInteger(rule.status) && rule.status >= 500 && rule.status <= 599)) throw new Error(`${at}.status: 500–599`);
  if (rule.fault === 'refuse' && !(WALLET_ERROR_CODES as readonly string[]).includes(rule.code as string)) throw new Error(`${at}.code: one of ${WALLET_ERROR_CODES.join(', ')}`);
}

function checkCalls(calls: readonly WalletCall[] | undefined, at: string): void {
  if (calls !== undefined && !(Array.isArray(calls) && calls.every((c) => CALLS.includes(c)))) throw new Error(`${at}: a list of ${CALLS.join(', ')}`);
}
