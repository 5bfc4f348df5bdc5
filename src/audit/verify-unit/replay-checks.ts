import { rulesOf } from '../../games/registry';
import { fromHex } from '../../random/hex';
import type { UnitCheck } from '../../protocol/verification';
import type { RecallRead } from './recall-shape';
import { sameJson } from './same-json';

/**
 * Scheme 3: the unit re-played from what the proof binds (the unit seed, the proven prize) and
 * what the recall records (the purchase's picks, the actions): the purchase step (`picks`), every
 * later step's events (`steps`) and the final scenario (`scenario`) must be exactly what was shown.
 */

/** The server's completion of an abandoned unit, as the action log records it (src/play/replay.ts). */
const SERVER_COMPLETE = 'server_complete';

const describe = (x: unknown) => JSON.stringify(x)?.slice(0, 160) ?? String(x);

/** The checks, and the purchase step's events as the seed deals them (undefined when the unit cannot start). */
export function replayChecks(recall: RecallRead, provenPrize: number): { checks: UnitCheck[]; purchaseEvents?: readonly unknown[] } {
  const rules = rulesOf(recall.game);
  const outcome = { stake: recall.stake, prize: provenPrize };
  const seed = fromHex(recall.proof.secret);
  // The purchase's picks, as the dealer stored them: one unit's pick, or null for games without.
  const picks = recall.picks ?? undefined;
  const parsed = rules.parsePicks(picks === undefined ? undefined : [picks]);
  const takesPicks = !rules.parsePicks(undefined).ok;
  if (!parsed.ok || parsed.value.length !== 1) {
    const detail = `the recalled picks ${describe(recall.picks)} are not a valid purchase of ${recall.game} (${parsed.ok ? 'not one unit' : parsed.code})`;
    return { checks: [{ id: 'picks', ok: false, detail }] };
  }
  let first;
  try {
    first = rules.start(outcome, seed, parsed.value[0]);
  } catch (err) {
    return { checks: [{ id: 'picks', ok: false, detail: `the unit cannot start from its seed and picks: ${String(err)}` }] };
  }
  const step0 = recall.steps[0];
  const purchaseShown = step0 !== undefined && step0.seq === 0 && step0.by === 'purchase' && step0.action === null && sameJson(step0.events, first.events);
  const checks: UnitCheck[] = [
    !takesPicks
      ? { id: 'picks', ok: true, detail: `${recall.game} takes no picks at purchase, and none are recalled` }
      : purchaseShown
        ? { id: 'picks', ok: true, detail: `the purchase step replays exactly from the picks ${describe(recall.picks)}` }
        : { id: 'picks', ok: false, detail: `the picks ${describe(recall.picks)} and the unit seed give the purchase step ${describe(first.events)}, not the one shown` },
  ];
  let state = first.state;
  const stepProblem = purchaseShown
    ? replaySteps(recall, state, (next) => (state = next))
    : `the purchase step shows ${describe(step0?.events)}, but the unit seed and picks give ${describe(first.events)}`;
  const finished = stepProblem === undefined && rules.isFinished(state);
  checks.push(
    stepProblem !== undefined
      ? { id: 'steps', ok: false, detail: stepProblem }
      : finished
        ? { id: 'steps', ok: true, detail: `all ${recall.steps.length} steps replay exactly from the unit seed and the recorded actions, ending with the prize ${provenPrize} cents` }
        : { id: 'steps', ok: false, detail: `the ${recall.steps.length} recorded steps replay but do not finish the unit: a step is missing` },
  );
  checks.push(
    finished
      ? scenarioCheck(recall, rules.scenarioOf(state), provenPrize)
      : { id: 'scenario', ok: false, detail: 'the scenario cannot be re-generated: the recorded steps do not replay to the end' },
  );
  return { checks, purchaseEvents: first.events };
}

/** Replays steps 1…n through the rules; the first difference, as a sentence, or undefined. */
function replaySteps(recall: RecallRead, start: unknown, keep: (state: unknown) => void): string | undefined {
  const rules = rulesOf(recall.game);
  let state = start;
  for (let i = 1; i < recall.steps.length; i++) {
    const step = recall.steps[i]!;
    if (step.seq !== i) return `step ${i} is numbered ${String(step.seq)}: a step was dropped or moved`;
    if (rules.isFinished(state)) return `step ${i} comes after the unit finished`;
    const completes = step.by === 'server' && (step.action as { type?: unknown } | null)?.type === SERVER_COMPLETE;
    let next;
    try {
      if (completes) next = rules.complete(state);
      else {
        const action = rules.parseAction(step.action);
        if (!action.ok || (step.by !== 'player' && step.by !== 'server')) return `step ${i}'s action ${describe(step.action)} by ${String(step.by)} is not one the rules take (${action.ok ? 'unknown author' : action.code})`;
        next = rules.reduce(state, action.value);
      }
    } catch (err) {
      return `step ${i} cannot be replayed: ${String(err)}`;
    }
    if (!next.ok) return `step ${i}'s action ${describe(step.action)} is refused by the rules (${next.code})`;
    if (!sameJson(step.events, next.events)) return `step ${i} shows ${describe(step.events)}, but replaying its action gives ${describe(next.events)}`;
    state = next.state;
  }
  keep(state);
  return undefined;
}

function scenarioCheck(recall: RecallRead, scenario: unknown, provenPrize: number): UnitCheck {
  if (!sameJson(recall.scenario, scenario)) {
    return { id: 'scenario', ok: false, detail: `the recalled scenario is not the one the unit seed generates for the proven prize (${provenPrize} cents) and these actions` };
  }
  const rules = rulesOf(recall.game);
  const broken = rules.ruleViolations(scenario);
  const scored = rules.evaluate(scenario);
  if (broken.length > 0 || scored !== provenPrize) return { id: 'scenario', ok: false, detail: `the generated scenario scores ${scored} cents or breaks rules (${broken.join('; ')})` };
  return { id: 'scenario', ok: true, detail: `the scenario is the one the unit seed generates, and the ${recall.game} evaluator scores it ${scored} cents` };
}

/** Scheme 2 (no unit seed): the scenario scores the proven prize and breaks no rule, no more. */
export function scoredScenarioCheck(recall: RecallRead, provenPrize: number): UnitCheck {
  const rules = rulesOf(recall.game);
  try {
    const broken = rules.ruleViolations(recall.scenario);
    const scored = rules.evaluate(recall.scenario);
    if (broken.length > 0) return { id: 'scenario', ok: false, detail: `the scenario breaks rules of the game: ${broken.join('; ')}` };
    if (scored !== provenPrize) return { id: 'scenario', ok: false, detail: `the scenario scores ${scored} cents, the proven tier pays ${provenPrize}` };
    return { id: 'scenario', ok: true, detail: `the scenario scores ${scored} cents with the ${recall.game} evaluator and breaks no rule` };
  } catch (err) {
    return { id: 'scenario', ok: false, detail: `the scenario cannot be scored: ${String(err)}` };
  }
}
