import type { Cluster, Redis } from 'ioredis';

/**
 * The dealer benchmark's target and what it reads (scripts/bench-dealer.ts): Redis's instructions
 * a purchase, counted by valgrind's callgrind, held to a count it must not exceed; callgrind's
 * totals; and the purchase script without the law's work, whose count gives the law's share.
 */

/** Redis's instructions a purchase the benchmark holds the dealer to: no regression from it. */
export const INSTRUCTIONS_TARGET = 173_500;

/**
 * How far above the target a count passes. Runs of the same code on a quiet machine repeat
 * within 0.3 %, and counts of the same code on other days and machines within 0.9 %: 1 % keeps
 * a regression of 1,800 instructions a purchase (a field more read or written) from passing.
 */
export const INSTRUCTIONS_TOLERANCE = 0.01;

/** The most instructions a purchase that passes. */
export const INSTRUCTIONS_LIMIT = Math.floor(INSTRUCTIONS_TARGET * (1 + INSTRUCTIONS_TOLERANCE));

/** Purchases a script call when the target was counted: fewer, and each purchase counts more. */
export const TARGET_PURCHASES_PER_CALL = 24.8;

export interface Verdict {
  /** `none`: the run's setup is not the target's, so its count says nothing against it. */
  readonly outcome: 'pass' | 'fail' | 'none';
  /** What the run prints: PASS, FAIL or "no verdict", and why. */
  readonly sentence: string;
}

const figure = (n: number) => n.toLocaleString('en-US');

/**
 * A count against the target. `changed` names what the run set otherwise than the target's
 * setup (its options); `purchasesPerCall` is the count's batching, named in a failure because a
 * busy machine batches fewer purchases a call, and so counts more instructions each.
 */
export function verdict(instructions: number, purchasesPerCall: number, changed: readonly string[] = []): Verdict {
  const target = `the target of ${figure(INSTRUCTIONS_TARGET)} + ${INSTRUCTIONS_TOLERANCE * 100} % (at most ${figure(INSTRUCTIONS_LIMIT)})`;
  if (changed.length > 0) {
    return { outcome: 'none', sentence: `no verdict: ${target} is counted with the default setup, and this run changed ${changed.join(', ')}` };
  }
  if (instructions <= INSTRUCTIONS_LIMIT) {
    return { outcome: 'pass', sentence: `PASS: ${figure(instructions)} Redis instructions a purchase, within ${target}` };
  }
  const above = (((instructions - INSTRUCTIONS_TARGET) / INSTRUCTIONS_TARGET) * 100).toFixed(1);
  return {
    outcome: 'fail',
    sentence:
      `FAIL: ${figure(instructions)} Redis instructions a purchase, ${above} % above ${target}: a purchase costs Redis more than it did` +
      ` (counted at ${purchasesPerCall} purchases a script call, the target at ${TARGET_PURCHASES_PER_CALL}; a busy machine batches fewer and` +
      ` makes the round longer, whose Redis timer is counted too: run it alone before reading a regression)`,
  };
}

/** The instructions of a callgrind output file (its `summary:` or `totals:` line). */
export function callgrindTotal(text: string): number {
  const total = /^(?:summary|totals): (\d+)/m.exec(text)?.[1];
  if (total === undefined) throw new Error('no summary or totals line in the callgrind output');
  return Number(total);
}

/** What a purchase may be counted without: its protection's checks, or the law's whole work. */
export type LawlessPart = 'protection' | 'law';

/**
 * The purchase script's lines that do the law's work, each at the one place purchaseUnits.lua
 * calls it, and what stands instead (the definitions, in its includes, stay: defining them
 * costs once a batch, not once a purchase).
 */
type Edit = readonly [line: RegExp, instead: string];
const PROTECTION_EDITS: readonly Edit[] = [
  // The protection's field, read with the wallet's.
  [/, unpack\(PURCHASE_FIELDS\)\)/g, ')'],
  [/^[ \t]*local nowMs = tonumber\(now\)\n/gm, ''],
  [/^[ \t]*local refused, checked = stakeRefusal\(.*\)\n[ \t]*if refused then return refused end\n/gm, ''],
  [/^[ \t]*countStake\(.*\)\n/gm, ''],
];
/** The regulator's archive line of each stake, and the batch's entry of them. */
const ARCHIVE_EDITS: readonly Edit[] = [
  [/^[ \t]*archiveLine\(.*\)\n/gm, ''],
  [/^[ \t]*archiveEntries\(.*\)\n/gm, ''],
];

/**
 * purchaseUnits.lua (its includes inlined) without `part`: without its protection's checks (the
 * player's limits, exclusion, block and reality check, and the stakes counted in their
 * windows), or without the law's work (those and the archive's line). Throws when a line is not
 * there once: the script changed, and the benchmark must learn its new shape.
 */
export function withoutTheLaw(lua: string, part: LawlessPart): string {
  const edits = part === 'protection' ? PROTECTION_EDITS : [...PROTECTION_EDITS, ...ARCHIVE_EDITS];
  return edits.reduce((text, [line, instead]) => {
    const found = text.match(line)?.length ?? 0;
    if (found !== 1) throw new Error(`the purchase script has ${found} places matching ${line}, not 1: teach tools/dealer-bench.ts its new shape`);
    return text.replace(line, instead);
  }, lua);
}

/**
 * Makes the purchases of a RedisStore on `client` run `purchaseLua` (purchaseUnits.lua, its
 * includes inlined) without `part`: the store calls its purchase as the command its script loader
 * defined on the client, `dealer_purchaseUnits`, which this defines again.
 */
export function purchaseWithoutTheLaw(client: Redis | Cluster, purchaseLua: string, part: LawlessPart): void {
  if (!('dealer_purchaseUnits' in client)) throw new Error('no dealer_purchaseUnits command on the client: make its RedisStore first');
  client.defineCommand('dealer_purchaseUnits', { lua: withoutTheLaw(purchaseLua, part) });
}
