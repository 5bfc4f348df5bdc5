import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import {
  assertAccessible, assertNoSidewaysScroll, buy, DESKTOP, finger, focusComes, GAMES, mouse, newPlayer, openGame, outcomeSentence, overflowing, PHONE, revealThroughUI, rubLamp, screenshotPath, shownLines, signIn, signInByPseudonym,
  uncoverCells, WAIT, wordsBrokenAcrossLines,
} from './ui';

/**
 * A game is one screen (issue 45): opened at its top, its board, price and « JOUER » in view
 * without scrolling on two phones and a laptop, at opening and after a ticket; the focus never
 * hidden under the sticky header.
 */

const SMALL_PHONE = { ...PHONE, viewport: { width: 360, height: 740 } } as const;
const SIZES = [['phone', PHONE], ['small-phone', SMALL_PHONE], ['laptop', DESKTOP]] as const;
const PHONES = [['phone', PHONE], ['small-phone', SMALL_PHONE]] as const;
const FIRST_STAKE: Record<string, number> = { 'rain-diamonds': 50, '500000-carats': 500, 'noel-de-la-chance': 50, 'mine-d-or': 50, 'mysteres-de-la-lampe': 50 };

let server: RunningServer;
let browser: Browser;
let base: string;
let names = 0;

/** The parts of a game's screen that are not whole between the sticky header and the bottom of the screen. */
async function outOfView(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const top = document.querySelector('header.top').getBoundingClientRect().bottom;
    const parts = { board: '.table .stage', price: '.table .prices', JOUER: '.table .buy-button' };
    return Object.entries(parts).flatMap(([name, sel]) => {
      const box = document.querySelector(sel).getBoundingClientRect();
      return box.top >= top - 1 && box.bottom <= window.innerHeight + 1 ? [] : [name + ' ' + Math.round(box.top) + '–' + Math.round(box.bottom) + ' of ' + Math.round(top) + '–' + window.innerHeight];
    });
  })()`);
}

/**
 * A short stroke in a covered cell's top left corner (the mouse left down): how much of the cell
 * it scratched, and the silver's alpha where the stroke passed and in the far corner.
 */
async function cornerStroke(page: Page, cell: string): Promise<{ box: { x: number; y: number; width: number; height: number }; part: number; scratched: number; untouched: number }> {
  const box = (await page.locator(cell).boundingBox())!;
  await page.mouse.move(box.x + 2, box.y + 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 6, box.y + 2, { steps: 2 });
  const part = Number(await page.locator(cell).getAttribute('data-scratched'));
  // A string: no helper names in the page.
  // The grid's one canvas, read at the cell's place on it.
  const alpha = (await page.evaluate(`(() => {
    const cell = document.querySelector(${JSON.stringify(cell)});
    const c = cell.closest('[role=grid]').querySelector('canvas');
    const ctx = c.getContext('2d');
    const grid = c.getBoundingClientRect();
    const { left, top, width, height } = cell.getBoundingClientRect();
    const ratio = c.width / grid.width;
    const at = (x, y) => ctx.getImageData(Math.floor((left - grid.left + x) * ratio), Math.floor((top - grid.top + y) * ratio), 1, 1).data[3];
    return { scratched: at(4, 3), untouched: at(width - 8, height - 8) };
  })()`)) as { scratched: number; untouched: number };
  return { box, part, ...alpha };
}

describe('a game is one screen', function () {
  this.timeout(300_000);

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ DEMO_BALANCE_CENTS: '1000000', FEED_BATCH_MS: '0' });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [size, device] of SIZES) {
    it(`on a ${size} (${device.viewport.width} × ${device.viewport.height}), each game opens at its top with its board, price and « JOUER » in view, at opening and after a ticket; nothing scrolls sideways`, async () => {
      // A player per game: a finger's drags sent through the DevTools protocol leave Chromium's
      // later taps in the same page unanswered (a quirk of the emulation, not of the page).
      for (const game of GAMES) {
        const { context, page } = await newPlayer(browser, device);
        try {
          await signIn(page, `Screen${++names}`, base);
          const gesture = 'hasTouch' in device ? await finger(page, context) : mouse(page);
          // The lobby scrolled down first: the game must not open at the lobby's scroll position.
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await openGame(page, game);
          assert.equal(await page.evaluate(() => window.scrollY), 0, `${game}, ${size}: opened at its top`);
          assert.deepEqual(await outOfView(page), [], `${game}, ${size}: at opening`);
          await assertNoSidewaysScroll(page, `${game}, ${size}, at opening`);
          if (size === 'small-phone') await assertAccessible(page, `${game} at opening, ${size}`);
          await page.screenshot({ path: screenshotPath(`one-screen-${size}-${game}-1-opening`) });
          await buy(page, game, FIRST_STAKE[game]!);
          await revealThroughUI(page, game, gesture);
          if (Number(await page.getByTestId('outcome').getAttribute('data-prize')) === 0) {
            assert.ok((await page.locator('.outcome .missing').innerText()).length > 10, `${game}: a loss says what was missing`);
          }
          assert.deepEqual(await outOfView(page), [], `${game}, ${size}: after a ticket`);
          await assertNoSidewaysScroll(page, `${game}, ${size}, after a ticket`);
          assert.deepEqual(await wordsBrokenAcrossLines(page, '.table'), [], `${game}, ${size}: words broken over two lines`);
          if (size === 'small-phone') await assertAccessible(page, `${game} after a ticket, ${size}`);
          await page.screenshot({ path: screenshotPath(`one-screen-${size}-${game}-2-after`) });
        } finally {
          await context.close();
        }
      }
    });
  }

  it('never hides the focus under the sticky header while Shift+Tab goes back up a game screen on a phone (WCAG 2.2 2.4.11)', async () => {
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      await signIn(page, `Focus${++names}`, base);
      for (const game of ['500000-carats', 'rain-diamonds'] as const) {
        await openGame(page, game);
        await buy(page, game, FIRST_STAKE[game]!);
        await revealThroughUI(page, game);
        // From the last control of the page, 40 steps back up.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.locator('.tab-list [role=tab][aria-selected=true]').focus();
        const hidden: string[] = [];
        for (let step = 0; step < 40; step++) {
          await page.keyboard.press('Shift+Tab');
          const where = await page.evaluate(`(() => {
            const el = document.activeElement;
            const header = document.querySelector('header.top');
            if (!el || el === document.body || header.contains(el)) return null;
            const box = el.getBoundingClientRect();
            return { name: el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30), top: box.top, bottom: box.bottom, header: header.getBoundingClientRect().bottom };
          })()`) as { name: string; top: number; bottom: number; header: number } | null;
          if (where && (where.top < where.header - 1 || where.bottom > PHONE.viewport.height + 1)) hidden.push(`${where.name} at ${Math.round(where.top)} under a header ending at ${Math.round(where.header)}`);
        }
        assert.deepEqual(hidden, [], `${game}: focus hidden`);
        await page.getByRole('button', { name: 'Retour' }).click();
        await page.getByRole('heading', { name: 'Jeux', exact: true }).waitFor(WAIT);
      }
    } finally {
      await context.close();
    }
  });

  it('500 000 CARATS: the silver clears under the pointer, a cell partly scratched stays covered and one scratched enough is revealed; a tap and Enter still open a cell', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signIn(page, `Scratch${++names}`, base);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      await page.locator('.reveal-winning').click();
      await page.locator('.ball:not(.ball-hidden)').first().waitFor(WAIT);
      // A short stroke in the cell's top left corner: cleared there, silver left elsewhere, nothing asked yet.
      const { box, part, scratched, untouched } = await cornerStroke(page, 'button.scratch[data-index="0"]');
      const y = box.y + box.height / 2;
      assert.ok(part > 0 && part < 35, `partly scratched: ${part} %`);
      assert.equal(scratched, 0, 'the silver is cleared where the pointer passed');
      assert.ok(untouched > 0, 'the silver stays where it did not');
      assert.equal(await page.locator('.scratch.scratched').count(), 0, 'not revealed yet');
      // On across the cell: scratched enough, it is revealed by the server's answer.
      await page.mouse.move(box.x + box.width - 3, y, { steps: 6 });
      await page.mouse.up();
      await page.locator('[role=gridcell] .scratch.scratched, .scratch.scratched').first().waitFor(WAIT);
      assert.equal(await page.locator('button.scratch[data-index="0"]').count(), 0, 'the cell is no longer covered');
      // Enter on another cell reveals it at once.
      await page.locator('button.scratch[data-index="1"]').focus();
      await page.keyboard.press('Enter');
      await page.locator('button.scratch[data-index="1"]').waitFor({ ...WAIT, state: 'detached' });
      await assertAccessible(page, '500 000 CARATS mid-scratch');
    } finally {
      await context.close();
    }
    const phone = await newPlayer(browser, PHONE);
    try {
      await signIn(phone.page, `Tap${++names}`, base);
      await openGame(phone.page, '500000-carats');
      await buy(phone.page, '500000-carats', 500);
      await phone.page.locator('.reveal-winning').tap();
      await phone.page.locator('button.scratch[data-index="3"]').tap();
      await phone.page.locator('button.scratch[data-index="3"]').waitFor({ ...WAIT, state: 'detached' });
    } finally {
      await phone.context.close();
    }
  });

  for (const game of ['mine-d-or', 'noel-de-la-chance'] as const) {
    it(`${game}: the cells come under silver that clears under the pointer, a cell partly scratched stays covered and one scratched enough shows its symbol; a tap and Enter still open a cell; the outcome waits for the last one`, async () => {
      const { context, page } = await newPlayer(browser, DESKTOP);
      const outcome = async () => page.getByTestId('outcome').isVisible();
      try {
        await signIn(page, `Silver${++names}`, base);
        await openGame(page, game);
        await buy(page, game, FIRST_STAKE[game]!);
        if (game === 'noel-de-la-chance') await page.locator('.symbol-choice.sym-bell').click();
        const cell = page.locator('.cell-scratch[data-index="0"]');
        await cell.waitFor(WAIT);
        assert.equal(await page.locator('.cell-scratch').count(), game === 'mine-d-or' ? 9 : 18, 'every cell under silver');
        assert.equal(await outcome(), false, 'no outcome while cells are under silver');
        // A short stroke in the cell's top left corner: cleared there, silver left elsewhere, still covered.
        const { box, part, scratched, untouched } = await cornerStroke(page, '.cell-scratch[data-index="0"]');
        assert.ok(part > 0 && part < 35, `partly scratched: ${part} %`);
        assert.equal(scratched, 0, 'the silver is cleared where the pointer passed');
        assert.ok(untouched > 0, 'the silver stays where it did not');
        assert.equal(await cell.count(), 1, 'still covered');
        // On across the cell: scratched enough, its symbol shows.
        await page.mouse.move(box.x + box.width - 3, box.y + box.height / 2, { steps: 6 });
        await page.mouse.up();
        await cell.waitFor({ ...WAIT, state: 'detached' });
        const first = page.locator('.stage [role=gridcell]').first();
        assert.match((await first.getAttribute('class'))!, /\bshown\b/, 'the first cell shows its symbol');
        assert.ok((await first.innerText()).length > 0, 'and names it');
        await assertAccessible(page, `${game} mid-scratch`);
        // Enter on another cell opens it at once.
        await page.locator('.cell-scratch[data-index="1"]').focus();
        await page.keyboard.press('Enter');
        await page.locator('.cell-scratch[data-index="1"]').waitFor({ ...WAIT, state: 'detached' });
        // The focus goes on to the next cell to scratch, never to the page.
        assert.match((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /à gratter$/);
        assert.equal(await outcome(), false, 'no outcome while cells are under silver');
        // Clicks on the rest: the outcome shows once the last is open (Mine d'or: after its Extra stages).
        if (game === 'mine-d-or') await revealThroughUI(page, game);
        else await uncoverCells(page, mouse(page));
        await page.getByTestId('outcome').waitFor(WAIT);
      } finally {
        await context.close();
      }
      const phone = await newPlayer(browser, PHONE);
      try {
        await signIn(phone.page, `Touch${++names}`, base);
        await openGame(phone.page, game);
        await buy(phone.page, game, FIRST_STAKE[game]!);
        if (game === 'noel-de-la-chance') await phone.page.locator('.symbol-choice.sym-bell').tap();
        await phone.page.locator('.cell-scratch[data-index="3"]').tap();
        await phone.page.locator('.cell-scratch[data-index="3"]').waitFor({ ...WAIT, state: 'detached' });
        assert.equal(await phone.page.locator('.cell-scratch').count(), game === 'mine-d-or' ? 8 : 17, 'one cell open, the others covered');
      } finally {
        await phone.context.close();
      }
    });
  }

  it('with reduced motion, nothing animates when a card is scratched and revealed (500 000 CARATS, Mine d’or, Le Noël)', async () => {
    const { context, page } = await newPlayer(browser, { ...PHONE, reducedMotion: 'reduce' });
    const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
    try {
      await signIn(page, `Still${++names}`, base);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      await page.locator('.reveal-winning').tap();
      await page.locator('button.scratch[data-index="0"]').tap();
      await page.locator('button.scratch[data-index="0"]').waitFor({ ...WAIT, state: 'detached' });
      assert.equal(await running(), 0, '500 000 CARATS: no animation runs');
      for (const game of ['mine-d-or', 'noel-de-la-chance'] as const) {
        await page.getByRole('button', { name: '← Retour' }).click();
        await openGame(page, game);
        await buy(page, game, FIRST_STAKE[game]!);
        if (game === 'noel-de-la-chance') await page.locator('.symbol-choice.sym-bell').tap();
        await page.locator('.cell-scratch[data-index="0"]').tap();
        await page.locator('.cell-scratch[data-index="0"]').waitFor({ ...WAIT, state: 'detached' });
        assert.equal(await running(), 0, `${game}: no animation runs`);
      }
    } finally {
      await context.close();
    }
  });
  it('counts a win above the stake up to its amount and buzzes a phone that allows it; under reduced motion the amount shows at once and nothing buzzes; the win’s sound plays only with « Son » on, whatever the motion', async () => {
    for (const reduced of [false, true]) {
      const { context, page } = await newPlayer(browser, reduced ? { ...PHONE, reducedMotion: 'reduce' } : PHONE);
      try {
        // Every text the outcome shows, named by the units it is the outcome of (the last ticket's
        // stays on screen until the next one is on the table), and every call to the Vibration API,
        // from the page's start, and every note the page's Web Audio plays (a string: no helper names for the page).
        await context.addInitScript(`
          window.outcomes = [];
          window.buzzes = [];
          window.notes = 0;
          Object.defineProperty(navigator, 'vibrate', { value: (pattern) => window.buzzes.push(pattern) > 0 });
          const Audio = window.AudioContext;
          window.AudioContext = class extends Audio { createOscillator() { window.notes++; return super.createOscillator(); } };
          new MutationObserver(() => {
            const text = document.querySelector('[data-testid=outcome] > span')?.textContent;
            const shown = text && document.querySelector('.stage[data-units]').getAttribute('data-units') + ' ' + text;
            if (shown && shown !== window.outcomes.at(-1)) window.outcomes.push(shown);
          }).observe(document, { subtree: true, childList: true, characterData: true });
        `);
        await signIn(page, `Count${++names}`, base);
        // « Son » left off (the default) with motion, turned on under reduced motion: sound is a choice of its own.
        if (reduced) {
          await page.getByRole('button', { name: 'Compte' }).click();
          await page.getByRole('button', { name: 'Son' }).click();
          assert.equal(await page.getByRole('button', { name: 'Son' }).getAttribute('aria-pressed'), 'true');
          await page.keyboard.press('Escape');
        }
        await openGame(page, 'rain-diamonds');
        let prize = 0;
        for (let unit = 0; unit < 80 && prize <= 50; unit++) {
          await page.evaluate('window.outcomes = []');
          await buy(page, 'rain-diamonds', 50);
          await page.getByRole('button', { name: 'AUTO' }).click();
          await page.getByTestId('outcome').waitFor(WAIT);
          prize = Number(await page.getByTestId('outcome').getAttribute('data-prize'));
        }
        assert.ok(prize > 50, 'a win above the stake within 80 units');
        const final = outcomeSentence(prize);
        await page.waitForFunction((f) => document.querySelector('[data-testid=outcome] > span')?.textContent === f, final, WAIT);
        const units = await page.locator('.stage[data-units]').getAttribute('data-units');
        const { outcomes: all, buzzes, notes } = await page.evaluate('({ outcomes: window.outcomes, buzzes: window.buzzes, notes: window.notes })') as { outcomes: string[]; buzzes: unknown[]; notes: number };
        const outcomes = all.filter((o) => o.startsWith(`${units} `)).map((o) => o.slice(`${units} `.length));
        if (reduced) {
          assert.deepEqual(outcomes, [final], 'the amount at once');
          assert.deepEqual(buzzes, [], 'no buzz');
          assert.ok(notes >= 2, `« Son » on: the win’s notes play under reduced motion too (${notes})`);
        } else {
          assert.ok(outcomes.length >= 3 && outcomes.at(-1) === final, `counted up: ${outcomes.join(' › ')}`);
          assert.ok(buzzes.length >= 1, 'a buzz');
          assert.equal(notes, 0, '« Son » off by default: no sound');
        }
        await assertAccessible(page, `a win, ${reduced ? 'reduced motion' : 'counted up'}`);
      } finally {
        await context.close();
      }
    }
  });
  for (const [size, device] of PHONES) {
    it(`Le Noël on a ${size} (${device.viewport.width} × ${device.viewport.height}): no symbol’s name breaks inside the word (« traîneau », the longest, whole in its cell)`, async () => {
      const { context, page } = await newPlayer(browser, device);
      try {
        await signIn(page, `Sleigh${++names}`, base);
        await openGame(page, 'noel-de-la-chance');
        const seen = new Set<string>();
        for (let ticket = 0; ticket < 8 && !seen.has('traîneau'); ticket++) {
          await buy(page, 'noel-de-la-chance', 50);
          await page.locator('.symbol-choice.sym-bell').click();
          await uncoverCells(page, mouse(page));
          for (const name of await page.locator('.stage .cell-name').allInnerTexts()) seen.add(name);
          assert.deepEqual(await wordsBrokenAcrossLines(page, '.stage'), [], `ticket ${ticket + 1}: words broken over two lines`);
        }
        assert.ok(seen.has('traîneau'), `a « traîneau » within 8 tickets: ${[...seen].join(', ')}`);
      } finally {
        await context.close();
      }
    });
  }

  for (const [size, device] of [...PHONES, ['laptop', DESKTOP]] as const) {
    it(`the lamp on a ${size}: each pick’s card grows with its lines, none cut, at purchase and once open`, async () => {
      const { context, page } = await newPlayer(browser, device);
      try {
        await signIn(page, `Wick${++names}`, base);
        await openGame(page, 'mysteres-de-la-lampe');
        for (let ticket = 0; ticket < 3; ticket++) {
          await buy(page, 'mysteres-de-la-lampe', 50, { colour: 'or', symbol: 'lune' });
          assert.deepEqual(await overflowing(page, '.lampe-unit'), [], `ticket ${ticket + 1}: cards cut at purchase`);
          await rubLamp(page, mouse(page));
          assert.deepEqual(await overflowing(page, '.lampe-unit'), [], `ticket ${ticket + 1}: cards cut once open`);
          assert.deepEqual(await wordsBrokenAcrossLines(page, '.table'), [], `ticket ${ticket + 1}: words broken over two lines`);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('reports the long tasks (over 50 ms) of 500 000 CARATS’ covers coming, of a scratch across them and of a RAIN DIAMONDS cascade at 4 × CPU slowdown on a phone (the 50 ms target is a measurement, docs/client.md, not a gate on a shared machine)', async () => {
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      // Every long task (over 50 ms) the page runs, from its start (a string: no helper names for the page).
      await context.addInitScript(`
        window.longTasks = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
      `);
      await signIn(page, `Slow${++names}`, base);
      const gesture = await finger(page, context);
      const cdp = await context.newCDPSession(page);
      // Two frames and a moment: the tasks of the frames that drew what came before are in.
      const settled = () => page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 300))))');
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.evaluate('window.longTasks = []');
      // The winning numbers, and the 24 cells under their silver.
      await gesture.tap('.reveal-winning');
      await page.locator('.ball:not(.ball-hidden)').first().waitFor(WAIT);
      await settled();
      const covers = await page.evaluate('window.longTasks') as number[];
      await page.evaluate('window.longTasks = []');
      const row = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => {
        const box = (await page.locator(`.scratch[data-index="${i}"]`).boundingBox())!;
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      }));
      await gesture.drag(row);
      await page.locator('button.scratch[data-index="5"]').waitFor({ ...WAIT, state: 'detached' });
      await settled();
      const scratch = await page.evaluate('window.longTasks') as number[];
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      await page.getByRole('button', { name: '← Retour' }).click();
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.evaluate('window.longTasks = []');
      // AUTO: every box opened, the gems collected, fallen and refilled, step by step at the server's pace.
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      await settled();
      const cascade = await page.evaluate('window.longTasks') as number[];
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      // Measured, not asserted: on a 2-core machine shared with other runs the same stroke's longest task takes 40 to 85 ms.
      console.log(`      long tasks at 4 × CPU: covers ${JSON.stringify(covers)} ms, scratch ${JSON.stringify(scratch)} ms, cascade ${JSON.stringify(cascade)} ms`);
      assert.ok(await page.evaluate("PerformanceObserver.supportedEntryTypes.includes('longtask')"), 'the Long Tasks API is there to measure');
    } finally {
      await context.close();
    }
  });
});

describe('the small things of a game screen', function () {
  this.timeout(120_000);
  let noelServer: RunningServer;
  let noelBrowser: Browser;

  before(async () => {
    buildWebIfStale();
    noelServer = await startTestServer({ DEMO_BALANCE_CENTS: '1000000', FEED_BATCH_MS: '0', PACE_STEP_MS: '120' });
    noelBrowser = await launchBrowser();
  });
  after(async () => {
    await noelBrowser?.close();
    await noelServer?.stop();
  });

  it('Le Noël: the focus goes to the first cell to scratch, never to the page, while the cells come one by one, and to the chosen symbol’s line once all are scratched', async () => {
    const { context, page } = await newPlayer(noelBrowser, DESKTOP);
    try {
      await signIn(page, 'Noelle', `http://127.0.0.1:${noelServer.port}`);
      await openGame(page, 'noel-de-la-chance');
      await buy(page, 'noel-de-la-chance', 50);
      await page.locator('.symbol-choice.sym-bell').focus();
      // Where the focus is at every frame, from the Enter until all 18 cells have come, under silver.
      const frames = page.evaluate(`new Promise((done) => {
        const seen = new Set();
        const look = () => {
          seen.add(document.activeElement === document.body ? 'body' : String(document.activeElement && document.activeElement.className));
          if (document.querySelectorAll('.cell-scratch').length === 18 && document.querySelectorAll('.stage .cell.shown').length === 18) done([...seen]); else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      })`) as Promise<string[]>;
      await page.keyboard.press('Enter');
      const seen = new Set(await frames);
      assert.ok(!seen.has('body'), `the focus went to the page: ${[...seen].join(', ')}`);
      assert.ok([...seen].some((c) => c.includes('cell-scratch')), `the focus on a cell to scratch: ${[...seen].join(', ')}`);
      await uncoverCells(page, mouse(page));
      assert.ok(await focusComes(page, '.noel-picked'), 'the focus on the chosen symbol’s line');
    } finally {
      await context.close();
    }
  });

  for (const [size, device] of [...PHONES, ['laptop', DESKTOP]] as const) {
    it(`the header’s session line on a ${size}: its « · » only between two parts on the same line, with a short and a long session`, async () => {
      const { context, page } = await newPlayer(noelBrowser, device);
      const at = `http://127.0.0.1:${noelServer.port}`;
      try {
        await signIn(page, `Dot${++names}`, at);
        const session = page.getByTestId('session');
        await page.waitForFunction(() => !document.querySelector('[data-testid=session]')?.textContent?.includes('…'), undefined, WAIT);
        const lone = (lines: string[]) => lines.filter((line) => line.startsWith('·') || line.endsWith('·'));
        const short = await shownLines(page, '[data-testid=session]');
        assert.deepEqual(lone(short), [], `a separator with nothing beside it: ${short.join(' / ')}`);
        // An hour played and a big loss: the longest parts a phone's header shows.
        await page.route('**/protection', async (route) => {
          const answer = (await (await route.fetch()).json()) as ProtectionState;
          await route.fulfill({ json: { ...answer, session: { ...answer.session, playedMs: 3_720_000, net: -145_000 } } });
        });
        await page.reload();
        await page.waitForFunction(() => document.querySelector('[data-testid=session]')?.textContent?.includes('02'), undefined, WAIT);
        const long = await shownLines(page, '[data-testid=session]');
        assert.deepEqual(lone(long), [], `a separator with nothing beside it: ${long.join(' / ')}`);
        assert.match((await session.textContent())!.replace(/\s+/g, ' '), /Session 1 h 02 min · −1 450 €/, 'screen readers get the whole line, with its separator');
      } finally {
        await context.close();
      }
    });
  }

  it('hides the operator’s token field from a player’s sign-in (shown with ?token-field), and draws a « JOUER » that is off in grey', async () => {
    const { context, page } = await newPlayer(noelBrowser, PHONE);
    const at = `http://127.0.0.1:${noelServer.port}`;
    try {
      await page.goto(`${at}/`);
      await page.getByLabel('Pseudonyme').waitFor(WAIT);
      assert.equal(await page.getByLabel('Jeton de l’opérateur').count(), 0, 'no token field for a player');
      await page.goto(`${at}/?token-field`);
      await page.getByLabel('Jeton de l’opérateur').waitFor(WAIT);
      await signInByPseudonym(page, 'Greta', at);
      // The first limits put off: « JOUER » is off, and looks it.
      const first = page.getByRole('dialog', { name: 'Vos limites de jeu' });
      await first.getByRole('button', { name: 'Plus tard' }).click();
      await first.waitFor({ ...WAIT, state: 'detached' });
      await openGame(page, 'rain-diamonds');
      const buyButton = page.locator('.buy-button');
      assert.equal(await buyButton.isDisabled(), true);
      const colour = await buyButton.evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.notEqual(colour, 'rgb(255, 204, 51)', 'not the yellow of a « JOUER » that can be pressed');
      await assertAccessible(page, 'a game with « JOUER » off');
    } finally {
      await context.close();
    }
  });
});
