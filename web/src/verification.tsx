import { useEffect, useRef, useState } from 'preact/hooks';
import { http, Refusal, storage } from './api';
import type { RecallRecord } from '../../src/protocol/recall';
import type { UnitCheck, UnitVerification } from '../../src/protocol/verification';
import type { LogAnswers } from './verification-core';
import { refusalOf, refusalSentence, type Strings } from './i18n';

/**
 * « Vérifier »: the recall on screen checked in the browser by the same core as
 * `npm run verify-unit` (src/audit/verify-unit/), against the block this server published
 * (`GET /fairness/blocks/:blockId`, public). The core is a chunk of its own, loaded on the first
 * click: the page's first load does not carry it. docs/fairness.md, « In the page ».
 */

type Phase =
  | { readonly state: 'running' }
  | { readonly state: 'done'; readonly result: UnitVerification; readonly ms: number }
  | { readonly state: 'not-done'; readonly why: string };

/** What a route answers, or undefined when it says it has none (`code`): the core then says what is missing. */
async function unlessNone<T>(answer: Promise<T>, code: string): Promise<T | undefined> {
  try {
    return await answer;
  } catch (err) {
    if (refusalOf(err).code === code) return undefined;
    throw err;
  }
}

/**
 * The log's answers for the recall's page: its key, the page's leaf under the latest signed
 * checkpoint and, when this browser accepted a checkpoint before, the proof that the new one
 * extends it (a smaller tree than the one seen before cannot: the core says it was rolled back).
 * The saved checkpoint goes to the core whatever log the server names now: a log answered under
 * another name is one that does not extend what this browser saw, and the core says so.
 */
async function logAnswers(recall: RecallRecord): Promise<LogAnswers | undefined> {
  if (recall.fairness.page === null) return undefined;
  const [key, inclusion] = await Promise.all([http.logKey(), unlessNone(http.logInclusion(recall.blockId, recall.fairness.page), 'fairness/log_not_found')]);
  const seen = storage.checkpoint();
  if (!inclusion || !seen) return { key, inclusion };
  const size = inclusion.checkpoint.treeSize;
  // A log smaller than the one seen has no proof to give: the core says it was rolled back.
  const consistency = seen.treeSize <= size ? await http.logConsistency(seen.treeSize, size) : undefined;
  return { key, inclusion, saved: { checkpoint: seen, consistency } };
}

async function verify(recall: RecallRecord): Promise<{ result: UnitVerification; ms: number }> {
  const [published, log, core] = await Promise.all([
    unlessNone(http.block(recall.blockId), 'fairness/unknown_block'),
    logAnswers(recall),
    import('./verification-core'),
  ]);
  const started = performance.now();
  const result = await core.verifyUnit(recall, { ...(published ? { published } : {}), ...(log ? { log } : {}) });
  const ms = performance.now() - started;
  if (log?.inclusion && result.checks.some((c) => c.id === 'checkpoint' && c.ok)) storage.saveCheckpoint(log.inclusion.checkpoint);
  return { result, ms };
}

/** Why the checks could not run: a refusal or no answer from the server, no WebCrypto (a page not served over HTTPS), else the error's words. */
function whyNotDone(err: unknown, s: Strings): string {
  if (err instanceof Refusal || refusalOf(err).code === 'network') return refusalSentence(err, s);
  if (!globalThis.crypto?.subtle) return s.verify.needsSecureContext;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The button and, once pressed, the result: a verdict in a live region (which takes the focus),
 * what it means, and one line per check. An unfinished unit cannot be verified yet: its recall
 * has no seed, and the button says so. `start` runs it at once (« Vérifier » from the history).
 */
export function Verification({ s, recall, start }: { s: Strings; recall: RecallRecord; start: boolean }) {
  const v = s.verify;
  const [phase, setPhase] = useState<Phase | undefined>();
  const section = useRef<HTMLElement>(null);
  const verdict = useRef<HTMLParagraphElement>(null);
  const finished = recall.status === 'finished';
  const run = () => {
    setPhase({ state: 'running' });
    verify(recall).then(
      ({ result, ms }) => setPhase({ state: 'done', result, ms }),
      (err: unknown) => setPhase({ state: 'not-done', why: whyNotDone(err, s) }),
    );
  };
  useEffect(() => {
    if (start && finished) run();
  }, [recall]);
  // The result in view from its heading (under the sticky header), its verdict focused: read next.
  useEffect(() => {
    if (!phase || phase.state === 'running') return;
    section.current?.scrollIntoView({ block: 'start' });
    verdict.current?.focus({ preventScroll: true });
  }, [phase]);

  if (!finished) {
    return (
      <p class="verify-later">
        <button type="button" class="small" aria-disabled="true" aria-describedby="verify-later-why">{v.button}</button>{' '}
        <span class="hint" id="verify-later-why">{v.laterWhy}</span>
      </p>
    );
  }
  const failed = phase?.state === 'done' ? phase.result.checks.filter((c) => !c.ok) : [];
  return (
    <section ref={section} class="verification" aria-labelledby="verify-title">
      <h3 id="verify-title">{v.title}</h3>
      <p>
        <button type="button" class="small" disabled={phase?.state === 'running'} onClick={run}>{phase ? v.again : v.button}</button>
      </p>
      {/* Present from the start, so that screen readers announce what it says next. */}
      <p
        ref={verdict}
        tabIndex={-1}
        role="status"
        class={`verdict ${phase?.state === 'done' ? (phase.result.ok ? 'verified' : 'failed') : ''}`}
        data-testid="verify-verdict"
        data-state={phase?.state === 'done' ? (phase.result.ok ? 'verified' : 'failed') : phase?.state ?? 'idle'}
        data-ms={phase?.state === 'done' ? phase.ms.toFixed(1) : undefined}
      >
        {phase?.state === 'running' ? v.running
          : phase?.state === 'not-done' ? v.notDone(phase.why)
            : phase?.state === 'done' ? (phase.result.ok ? v.verified : v.failed(failed.length)) : ''}
      </p>
      {phase?.state === 'done' && (
        <>
          {!phase.result.ok && <p class="verify-meaning">{v.failedMeaning}</p>}
          {/* What failed first: it is what the player must read. */}
          <ul class="checks" data-testid="verify-checks">
            {[...failed, ...phase.result.checks.filter((c) => c.ok)].map((c, i) => <CheckLine key={`${c.id}-${i}`} s={s} check={c} />)}
          </ul>
          {/* What the checks could not cover (an older scheme): the core's own sentences, in English. */}
          {phase.result.notes.length > 0 && (
            <>
              <p class="label">{v.notes}</p>
              <ul class="verify-notes" lang="en">{phase.result.notes.map((n) => <li key={n}>{n}</li>)}</ul>
            </>
          )}
          <p class="hint">{v.scope}</p>
        </>
      )}
    </section>
  );
}

function CheckLine({ s, check }: { s: Strings; check: UnitCheck }) {
  const v = s.verify;
  const words = Object.hasOwn(v.checks, check.id) ? v.checks[check.id] : undefined;
  return (
    <li class={check.ok ? 'check-ok' : 'check-failed'} data-check={check.id} data-ok={String(check.ok)}>
      <span class="check-mark" aria-hidden="true">{check.ok ? '✓' : '✗'}</span>
      <span>
        <span class="sr-only">{check.ok ? v.passed : v.failedMark}{s.colon}</span>
        {words ? (check.ok ? words.ok : words.failed) : v.unknownCheck(check.id)}
        {/* The core's own sentence says what differed (it writes English). */}
        {!check.ok && <small class="check-detail">{v.detail}{s.colon}<span lang="en">{check.detail}</span></small>}
      </span>
    </li>
  );
}
