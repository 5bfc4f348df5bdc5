import { strict as assert } from 'node:assert';
import type { Refusal } from '../../src/games/types';

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
