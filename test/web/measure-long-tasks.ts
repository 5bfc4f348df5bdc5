/**
 * `npm run measure:long-tasks [-- --runs 4 --breakdown]`: the longest tasks of the page's main
 * thread on a phone (390 × 844) at 4 × CPU slowdown, from a Chromium trace (DevTools protocol,
 * `Tracing`), in the three moments `test/web/game-screen.test.ts` reports (docs/client.md,
 * « Measured »): 500 000 CARATS' covers coming (the winning numbers revealed, 24 cells under
 * silver), a finger across a row of six covers, and a RAIN DIAMONDS AUTO cascade. Per run and
 * moment: the four longest tasks in ms; with `--breakdown`, what each task over 50 ms spent its
 * time in (the trace's events, nested, those of 1 ms or more). The page is the one `web/dist/`
 * holds (built first when stale); a trace's own cost makes every task a little longer.
 */
import type { CDPSession } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { buy, finger, newPlayer, openGame, PHONE, signIn, WAIT } from './ui';
import { optionsOrExit, whole } from '../../tools/command-line';

const { runs: RUNS, breakdown: BREAKDOWN } = optionsOrExit<{ runs: number; breakdown: boolean }>({
  synopsis: 'npm run measure:long-tasks -- [--runs 4] [--breakdown]',
  defaults: { runs: 4, breakdown: false },
  flags: [
    { name: '--runs', value: 'N', help: 'players, one after the other, each through the three moments (default 4)', set: (o, v) => (o.runs = whole(v, 1, 100)) },
    { name: '--breakdown', help: 'what each task over 50 ms spent its time in', set: (o) => (o.breakdown = true) },
  ],
});

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { name?: string; data?: { type?: string; functionName?: string; url?: string } };
}

/** The renderer main thread's complete events while `act` runs at 4 × CPU slowdown. */
async function traced(cdp: CDPSession, act: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (d: { value: object[] }) => events.push(...(d.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,toplevel,cc,blink', transferMode: 'ReportEvents' });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await act();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return events.filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid);
}

/** The four longest tasks, and with --breakdown the events nested in each over 50 ms. */
function report(moment: string, events: readonly TraceEvent[]): void {
  const tasks = events.filter((e) => e.name === 'RunTask').sort((a, b) => b.dur! - a.dur!);
  console.log(`${moment}: longest tasks ${tasks.slice(0, 4).map((t) => (t.dur! / 1000).toFixed(1)).join(', ')} ms`);
  if (!BREAKDOWN) return;
  const within = (outer: TraceEvent, e: TraceEvent) => e !== outer && e.ts >= outer.ts && e.ts + e.dur! <= outer.ts + outer.dur!;
  const print = (outer: TraceEvent, depth: number): void => {
    const inside = events.filter((e) => within(outer, e));
    for (const e of inside.filter((e) => !inside.some((o) => within(o, e)) && e.dur! >= 1000)) {
      const data = e.args?.data;
      console.log(`${'  '.repeat(depth)}${e.name} ${(e.dur! / 1000).toFixed(1)} ms ${data?.type ?? data?.functionName ?? ''}`);
      print(e, depth + 1);
    }
  };
  for (const task of tasks.filter((t) => t.dur! > 50_000)) {
    console.log(`  task of ${(task.dur! / 1000).toFixed(1)} ms:`);
    print(task, 2);
  }
}

buildWebIfStale();
const server = await startTestServer({ DEMO_BALANCE_CENTS: '1000000', FEED_BATCH_MS: '0' });
const base = `http://127.0.0.1:${server.port}`;
const browser = await launchBrowser();
try {
  for (let run = 1; run <= RUNS; run++) {
    console.log(`run ${run}`);
    const { context, page } = await newPlayer(browser, PHONE);
    const gesture = await finger(page, context);
    const cdp = await context.newCDPSession(page);
    const settled = () => page.waitForTimeout(500);
    await signIn(page, `Traced${run}`, base);
    await openGame(page, '500000-carats');
    await buy(page, '500000-carats', 500);
    report('covers', await traced(cdp, async () => {
      await gesture.tap('.reveal-winning');
      await page.locator('.ball:not(.ball-hidden)').first().waitFor(WAIT);
      await settled();
    }));
    const row = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => {
      const box = (await page.locator(`.scratch[data-index="${i}"]`).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }));
    report('scratch', await traced(cdp, async () => {
      await gesture.drag(row);
      await page.locator('button.scratch[data-index="5"]').waitFor({ ...WAIT, state: 'detached' });
      await settled();
    }));
    await page.getByRole('button', { name: 'AUTO' }).click();
    await page.getByTestId('outcome').waitFor(WAIT);
    await page.getByRole('button', { name: '← Retour' }).click();
    await openGame(page, 'rain-diamonds');
    await buy(page, 'rain-diamonds', 50);
    report('cascade', await traced(cdp, async () => {
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      await settled();
    }));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
