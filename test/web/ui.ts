import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { HistoryPage, RecallRecord } from '../../src/protocol/recall';

/**
 * What a person does on the page, for the browser tests: sign in, open a game, buy, reveal with
 * the mouse, a finger or the keyboard; and what the tests read back (events shown, balance,
 * recall) or check (axe-core, layout).
 */

export const WAIT = { timeout: 20_000 };

/**
 * Where a browser test draws picture `name`: test-output/screenshots/ (git ignores it), to look
 * at after any run; the README's docs/screenshots/ only with UPDATE_SCREENSHOTS=1 (`npm run
 * screenshots`), when the page's look changed. Chromium's gradients differ by a few pixels from
 * run to run, so drawing into docs/ on every run left pictures to put back before each commit.
 */
export function screenshotPath(name: string): string {
  const dir = process.env['UPDATE_SCREENSHOTS'] === '1' ? join('docs', 'screenshots') : join('test-output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

/** The two screens every game is played on: a laptop with a mouse, a phone with a finger. */
export const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 } as const;

export const GAMES = ['rain-diamonds', '500000-carats', 'noel-de-la-chance', 'mine-d-or', 'mysteres-de-la-lampe'] as const;

export const GAME_BUTTONS: Record<string, RegExp> = {
  'rain-diamonds': /^RAIN DIAMONDS/,
  '500000-carats': /^500 000 CARATS/,
  'noel-de-la-chance': /^Le Noël de la chance/,
  'mine-d-or': /^Mine d’or/,
  'mysteres-de-la-lampe': /^Les mystères de la lampe/,
};

export function euroLabel(cents: number): string {
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: cents % 100 === 0 ? 0 : 2 }).format(cents / 100);
}

/** « Gagné : 2 € » or « Perdu », as the page says it. */
export function outcomeSentence(prize: number): string {
  return prize > 0 ? `Gagné\u202f: ${euroLabel(prize)}` : 'Perdu';
}

/** A weekly stake limit high enough for every test's purchases (in euros, as the player types it). */
export const TEST_STAKE_LIMIT = '100000';
/** A weekly playing time no test comes near (in hours, as the player types it). */
export const TEST_TIME_LIMIT = '100';

/** The first sign-in's dialog: the weekly stake limit and playing time typed and confirmed, as a player does before any purchase. */
export async function setFirstLimits(page: Page, weekly = TEST_STAKE_LIMIT): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Vos limites de jeu' });
  await dialog.waitFor(WAIT);
  await dialog.getByLabel(/^Mises sur 7 jours/).fill(weekly);
  await dialog.getByLabel(/^Temps de jeu sur 7 jours/).fill(TEST_TIME_LIMIT);
  await dialog.getByRole('button', { name: 'Confirmer mes limites' }).click();
  await dialog.waitFor({ ...WAIT, state: 'detached' });
}

/** Signs in with a pseudonym (the dev login), leaving the first sign-in's dialog open. */
export async function signInByPseudonym(page: Page, name: string, at: string, query = ''): Promise<void> {
  await page.goto(`${at}/${query}`);
  await page.getByLabel('Pseudonyme').fill(name);
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await page.getByRole('heading', { name: 'Jeux', exact: true }).waitFor(WAIT);
}

/** Signs in with a pseudonym and sets the weekly stake limit the first sign-in asks for. */
export async function signIn(page: Page, name: string, at: string, query = ''): Promise<void> {
  await signInByPseudonym(page, name, at, query);
  await setFirstLimits(page);
}

export async function openGame(page: Page, game: string): Promise<void> {
  await page.getByRole('button', { name: GAME_BUTTONS[game]! }).click();
  await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
  await page.locator('[data-testid=balance][data-cents]:not([data-cents=""])').waitFor(WAIT);
}

/**
 * Under a game, its odds and rules, its history and the spectators' switch are tabs: this one is
 * shown (nothing to do where there are no tabs: the lobby, a recall).
 */
export async function showTab(page: Page, name: 'Gains et chances' | 'Historique' | 'Spectateurs' | 'History'): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true });
  if ((await tab.count()) > 0) await tab.click();
}

/**
 * Opens the player's table to spectators; resolves with its room, the one new in `GET /tables`
 * (which masks pseudonyms as the win feed does: « P12*** », so a test tells its table by its room).
 */
export async function openToWatchers(page: Page, at: string): Promise<string> {
  const rooms = async () => ((await (await fetch(`${at}/tables`)).json()) as { roomId: string }[]).map((t) => t.roomId);
  const before = new Set(await rooms());
  await showTab(page, 'Spectateurs');
  await page.getByRole('button', { name: 'Ouvrir ma table aux spectateurs' }).click();
  await page.getByText('Votre table est ouverte aux spectateurs.').waitFor(WAIT);
  for (const until = Date.now() + WAIT.timeout; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const added = (await rooms()).find((room) => !before.has(room));
    if (added) return added;
  }
  throw new Error('no new table in GET /tables');
}

/** Where an element is on the page (not the screen): it must not move when a unit starts or ends. */
export async function pageTop(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
}

export async function balance(page: Page): Promise<number> {
  return Number(await page.getByTestId('balance').getAttribute('data-cents'));
}

export async function shownEvents(page: Page): Promise<number> {
  return Number(await page.locator('.stage[data-events]').getAttribute('data-events'));
}

/** Waits until the screen shows more events than `before`. */
export async function moreEvents(page: Page, before: number): Promise<void> {
  await page.waitForFunction((b) => Number(document.querySelector('.stage[data-events]')?.getAttribute('data-events')) > b, before, WAIT);
}

/** Presses the lamp's choice buttons until exactly these are chosen (« couleur or », « symbole lune »). */
export async function chooseLamp(page: Page, lamp: { colour?: string; symbol?: string }): Promise<void> {
  for (const button of await page.locator('.lamp-choice').all()) {
    const name = (await button.getAttribute('aria-label'))!;
    const wanted = name === `couleur ${lamp.colour}` || name === `symbole ${lamp.symbol}`;
    if (wanted !== ((await button.getAttribute('aria-pressed')) === 'true')) await button.click();
  }
}

/** Buys at `stake` (the lamp with its picks); resolves when the new unit's opening is on screen. */
export async function buy(page: Page, game: string, stake: number, lamp: { colour?: string; symbol?: string } = { colour: 'or' }): Promise<void> {
  await page.getByRole('radio', { name: euroLabel(stake) }).check();
  if (game === 'mysteres-de-la-lampe') await chooseLamp(page, lamp);
  await purchased(page, () => page.locator('.buy-button').click());
}

/** Runs the act that buys (a click, Enter on « JOUER ») and waits until the new units are on the table. */
export async function purchased(page: Page, buying: () => Promise<void>): Promise<void> {
  const stage = page.locator('.stage[data-units]');
  const before = (await stage.count()) > 0 ? await stage.getAttribute('data-units') : null;
  await buying();
  await page.waitForFunction((b) => {
    const units = document.querySelector('.stage[data-units]')?.getAttribute('data-units');
    return units !== undefined && units !== null && units !== b;
  }, before, WAIT);
}

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A pointer (mouse or finger) dragged from one point through others. */
export interface Gesture {
  drag(points: readonly { x: number; y: number }[]): Promise<void>;
  tap(selector: string): Promise<void>;
}

export function mouse(page: Page): Gesture {
  return {
    async drag(points) {
      await page.mouse.move(points[0]!.x, points[0]!.y);
      await page.mouse.down();
      for (const p of points.slice(1)) await page.mouse.move(p.x, p.y, { steps: 4 });
      await page.mouse.up();
    },
    tap: (selector) => page.locator(selector).first().click(),
  };
}

/** Chromium's own touch events (a context with a touch screen). */
export async function finger(page: Page, context: BrowserContext): Promise<Gesture> {
  const cdp = await context.newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  return {
    async drag(points) {
      await touch('touchStart', points[0]!.x, points[0]!.y);
      for (const p of points.slice(1)) await touch('touchMove', p.x, p.y);
      await touch('touchEnd');
    },
    tap: (selector) => page.locator(selector).first().tap(),
  };
}

/** Rubs the lamp back and forth until the outcome shows. */
export async function rubLamp(page: Page, gesture: Gesture): Promise<void> {
  const outcome = page.getByTestId('outcome');
  await page.locator('.lamp').scrollIntoViewIfNeeded();
  const lamp = (await page.locator('.lamp').boundingBox())!;
  const y = lamp.y + lamp.height / 2;
  for (let i = 0; i < 40 && !(await outcome.isVisible()); i++) {
    const points = Array.from({ length: 8 }, (_, k) => ({ x: lamp.x + 20 + ((k % 2) * (lamp.width - 40)), y: y + (k % 3) * 4 }));
    await gesture.drag(points);
  }
}

/** Taps Mine d'or's or Le Noël's cells under silver one by one until none is left (they are uncovered on the page). */
export async function uncoverCells(page: Page, gesture: Gesture): Promise<void> {
  const covered = page.locator('.cell-scratch');
  await Promise.race([covered.first().waitFor(WAIT), page.getByTestId('outcome').waitFor(WAIT)]);
  for (let left = await covered.count(); left > 0; left = await covered.count()) {
    await gesture.tap('.cell-scratch');
    await page.waitForFunction((n) => document.querySelectorAll('.cell-scratch').length < n, left, WAIT);
  }
}

/** Reveals the bought unit through the UI with a mouse or a finger; resolves when the outcome shows. */
export async function revealThroughUI(page: Page, game: string, gesture: Gesture = mouse(page), moment?: () => Promise<void>): Promise<void> {
  const outcome = page.getByTestId('outcome');
  switch (game) {
    case 'rain-diamonds':
      for (const box of [3, 1, 5, 2, 4]) {
        const before = await shownEvents(page);
        await gesture.tap(`.box[aria-label="Case ${box}"]`);
        await moreEvents(page, before);
        if (box === 1) await moment?.();
      }
      break;
    case '500000-carats': {
      let before = await shownEvents(page);
      await gesture.tap('.reveal-winning');
      await moreEvents(page, before);
      // Two numbers one by one, then the rest row by row with a drag.
      for (const i of [0, 1]) {
        before = await shownEvents(page);
        await gesture.tap(`.scratch[data-index="${i}"]`);
        await moreEvents(page, before);
      }
      for (let row = 0; row < 4; row++) {
        const first = row === 0 ? 2 : row * 6;
        const cells = await Promise.all(Array.from({ length: (row + 1) * 6 - first }, (_, k) => centre(page, `.scratch[data-index="${first + k}"]`)));
        before = await shownEvents(page);
        await gesture.drag(cells);
        await moreEvents(page, before);
        if (row === 1) await moment?.();
      }
      break;
    }
    case 'noel-de-la-chance':
      await moment?.();
      await gesture.tap('.symbol-choice.sym-bell');
      await uncoverCells(page, gesture);
      break;
    case 'mine-d-or':
      await moment?.();
      while (!(await outcome.isVisible())) {
        await uncoverCells(page, gesture);
        const extra = page.getByRole('button', { name: 'EXTRA', exact: true });
        await Promise.race([extra.waitFor(WAIT), outcome.waitFor(WAIT)]);
        if (await outcome.isVisible()) break;
        const before = await shownEvents(page);
        await gesture.tap('.mine-extra button');
        await moreEvents(page, before);
      }
      break;
    case 'mysteres-de-la-lampe':
      await moment?.();
      await rubLamp(page, gesture);
      break;
  }
  await outcome.waitFor(WAIT);
}

/**
 * The focus comes to the element matching `selector`: the page moves it in an effect, the frame
 * after the screen shows, so it is waited for. True once it is there, false if it never comes.
 */
export function focusComes(page: Page, selector: string): Promise<boolean> {
  return page.waitForFunction((sel) => document.activeElement?.matches(sel) === true, selector, WAIT).then(() => true, () => false);
}

/**
 * Reveals with the keyboard only: Enter on the game's next control, Tab (or Shift+Tab, from a
 * control after the board) to reach it; the focus must never fall to the page.
 */
export async function revealByKeyboard(page: Page, game: string): Promise<void> {
  const outcome = page.getByTestId('outcome');
  // Le Noël: the bell, then each cell under silver (« Case 3 à gratter »).
  const target = game === 'noel-de-la-chance' ? /cloche|à gratter$/ : game === 'mysteres-de-la-lampe' ? /^Frotter$/ : /./;
  const trail: string[] = [];
  for (let presses = 0; presses < 100 && !(await outcome.isVisible()); presses++) {
    // The page moves the focus on within a frame when an action disabled the focused control.
    const settled = () => {
      const el = document.activeElement as HTMLButtonElement | null;
      return el !== null && el !== document.body && !el.disabled;
    };
    await page.waitForFunction(settled, undefined, { timeout: 3_000 }).catch(() => undefined);
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const stage = document.querySelector('.stage');
      if (!el || el === document.body || !stage) return null;
      const after = !stage.contains(el) && (stage.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      return { label: el.getAttribute('aria-label') ?? el.textContent ?? '', onBoard: stage.contains(el), after };
    });
    assert.notEqual(focused, null, `${game}: the focus fell to the page after ${presses} presses`);
    trail.push(focused!.label.slice(0, 30));
    if (!focused!.onBoard || !target.test(focused!.label)) {
      await page.keyboard.press(focused!.after ? 'Shift+Tab' : 'Tab');
      continue;
    }
    const before = await shownEvents(page);
    // A cell under silver opens on the page (no event): its button goes.
    const pressed = await page.evaluateHandle(() => document.activeElement!);
    await page.keyboard.press('Enter');
    await Promise.race([moreEvents(page, before), outcome.waitFor(WAIT), page.waitForFunction((el) => !el.isConnected, pressed, WAIT)]);
  }
  await outcome.waitFor(WAIT).catch(() => assert.fail(`${game}: no outcome after 100 presses on ${trail.join(' › ')}`));
}

export async function tokenOf(page: Page): Promise<string> {
  const saved = await page.evaluate(() => sessionStorage.getItem('instant-games.session'));
  return (JSON.parse(saved!) as { token: string }).token;
}

export async function history(page: Page, at: string): Promise<HistoryPage['units']> {
  const res = await fetch(`${at}/history?limit=5`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
  return ((await res.json()) as HistoryPage).units;
}

/** The recall of a unit the page played to its end. */
export async function recallOf(page: Page, at: string, unitId: string): Promise<RecallRecord & { readonly prize: number }> {
  const res = await fetch(`${at}/history/${encodeURIComponent(unitId)}`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
  assert.equal(res.status, 200);
  const recall = (await res.json()) as RecallRecord;
  assert.ok(recall.status === 'finished' && recall.prize !== null, `unit ${unitId} is finished`);
  return { ...recall, prize: recall.prize };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/**
 * axe-core run in the page (injected from the npm package, never fetched): no serious or
 * critical violation of WCAG 2.x A/AA on what the screen shows now.
 */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  // Evaluated through the DevTools protocol: the page's CSP (scripts from itself only) does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run(ctx: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => `${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), [], `axe-core on ${where}`);
}

/** Nothing wider than the screen: no sideways scroll. */
export async function assertNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

/**
 * The words under `selector` that the screen breaks over two lines (« traîne|au »): a word is
 * text between spaces, read from each text node's own line boxes (screen-reader-only text aside).
 */
export async function wordsBrokenAcrossLines(page: Page, selector: string): Promise<string[]> {
  // A string: no helper names for the page.
  return page.evaluate(`(() => {
    const broken = [];
    for (const root of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement || node.parentElement.closest('.sr-only')) continue;
        for (const word of node.data.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
          // A fallback font's glyphs may sit a pixel or two lower on the same line: a new line is half a line lower.
          if (boxes.some((b) => Math.abs(b.top - boxes[0].top) > boxes[0].height / 2)) broken.push(word[0]);
        }
      }
    }
    return broken;
  })()`);
}

/**
 * The lines of text the screen shows in the element matching `selector`, each its words in
 * order (text clipped to a pixel, there for screen readers, aside).
 */
export async function shownLines(page: Page, selector: string): Promise<string[]> {
  // A string: no helper names for the page.
  return page.evaluate(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    const clipped = (el) => {
      for (; el && el !== root.parentElement; el = el.parentElement) {
        const box = el.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) return true;
      }
      return false;
    };
    const lines = [];
    let middle = -Infinity;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (clipped(node.parentElement)) continue;
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const box = [...range.getClientRects()].find((r) => r.width > 0);
        if (!box) continue;
        if (box.top >= middle) {
          lines.push([]);
          middle = (box.top + box.bottom) / 2;
        }
        lines.at(-1).push(word[0]);
      }
    }
    return lines.map((words) => words.join(' '));
  })()`);
}

/** The elements matching `selector` whose content is taller than their box (cut, or scrolling inside). */
export async function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.filter((el) => el.scrollHeight > el.clientHeight + 1)
    .map((el) => `${(el as HTMLElement).innerText.replace(/\s+/g, ' ')} (${el.scrollHeight} px in ${el.clientHeight})`));
}

/** Every visible button, link, radio and summary is at least 44 × 44 px (WCAG 2.5.5's size). */
export async function assertTargets(page: Page, where: string): Promise<void> {
  const small = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('button, a[href], summary, label:has(input[type=radio])')]
    .filter((el) => el.offsetParent !== null && !el.closest('.sr-only'))
    .map((el) => ({ el, box: el.getBoundingClientRect() }))
    .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
    .map(({ el, box }) => `${el.getAttribute('aria-label') ?? el.textContent?.trim()} ${Math.round(box.width)}×${Math.round(box.height)}`));
  assert.deepEqual(small, [], `${where}: targets under 44 px`);
}

/** A new context with the page's size and input; the caller closes it. */
export async function newPlayer(browser: Browser, device: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(device);
  return { context, page: await context.newPage() };
}
