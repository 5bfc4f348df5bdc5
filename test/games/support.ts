import { strict as assert } from 'node:assert';
import { rulesOf, type AnyGameRules } from '../../src/games/registry';
import type { GameId, Refusal } from '../../src/games/types';

/** Asserts that a reducer or parser refused, with `code`. */
export function refused(result: { ok: boolean } | Refusal, code: string): void {
  assert.equal(result.ok, false);
  assert.equal((result as Refusal).code, code);
}

/** Deep-freezes a state so that any mutation by the reducer throws (ES modules are strict). */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

/**
 * Runs `body` with `game`'s rules given `broken` in place of theirs, put back after: a game whose
 * rules break their own promises, for the defences a correct game never reaches.
 */
export function withBrokenRules<T>(game: GameId, broken: Partial<AnyGameRules>, body: () => T): T {
  const rules = rulesOf(game);
  const kept = { ...rules };
  Object.assign(rules, broken);
  try {
    return body();
  } finally {
    Object.assign(rules, kept);
  }
}
