/**
 * What a unit's verification says (src/audit/verify-unit/, `npm run verify-unit`, the page's
 * « Vérifier »): one check per thing proven, each with one English sentence saying what held or
 * what differed (docs/fairness.md, "Verifying a unit").
 */

export type UnitCheckId =
  /** The recall is one this verifier reads (unit-recall/v2 or v3, its body the label's), of a finished unit of a known table. */
  | 'format'
  /** The Merkle proof leads to the page root the recall names. */
  | 'proof'
  /** That root is the one the server published for the unit's block and page (or `offline`). */
  | 'published-root'
  /** The page was published no later than the sale, at the time the recall says. */
  | 'published-in-time'
  /** Position, block, page and unit id agree everywhere in the recall and the proof. */
  | 'position'
  /** Scheme 3: the unit seed is the leaf's; once the block closes, it derives from the block seed. */
  | 'unit-seed'
  /** The scenario is the one the unit seed generates (scheme 2: it scores the prize and breaks no rule). */
  | 'scenario'
  /** Every step shown replays exactly from the unit seed and the recorded actions. */
  | 'steps'
  /** The recalled prize is the table's amount for the proven tier. */
  | 'prize'
  /** The journal lines debit the stake and credit exactly the proven prize. */
  | 'ledger'
  /** The purchase's picks are valid and the purchase step replays from them. */
  | 'picks'
  /** Signed checkpoints of the page roots: the page's leaf is in the log, which extends the checkpoint saved before. */
  | 'checkpoint'
  /** The sale comes before every step, the finish after; the page was published before the sale; the stake is journalled at the sale. */
  | 'times'
  /** `completedBy` names the author of the last step. */
  | 'completed-by'
  /** The purchase's request id, and a pair link only on a unit of a lamp pair. */
  | 'purchase'
  /** What the game offered beside the scenario (Noël's symbols, as its purchase step deals them); null for the others. */
  | 'presentation';

export interface UnitCheck {
  readonly id: UnitCheckId;
  readonly ok: boolean;
  /** English, one sentence: what held, or what differed. */
  readonly detail: string;
}

export interface UnitVerification {
  /** True when every check holds. */
  readonly ok: boolean;
  readonly checks: readonly UnitCheck[];
  /** What these checks could not cover (an older scheme, an offline check), one sentence each. */
  readonly notes: readonly string[];
}
