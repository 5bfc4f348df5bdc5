import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { matchMaker } from '@colyseus/core';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { gameCatalog } from '../../src/games/catalog';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import type { HistoryPage, RecallRecord } from '../../src/protocol/recall';
import type { RunningServer } from '../../src/server/app';
import { WEB_DIST } from '../../src/server/web-page';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { WireTap, watcherLags } from './wire-tap';
import { ChildServer } from '../../tools/server-process';
import { freePort } from '../../tools/redis-server';

/**
 * The page in a real Chromium against an embedded server: a person signs in, buys and
 * reveals through the UI (clicks, drags, the rub gesture), and what the screen shows is
 * checked against the server's recall. `?pace=0` plays the steps without the on-screen pacing.
 */

const DEMO = 1_000_000;
const WAIT = { timeout: 20_000 };
/** Each game's finished screen, shown by the README. */
const SCREENSHOTS = join('docs', 'screenshots');

const GAME_BUTTONS: Record<string, RegExp> = {
  'rain-diamonds': /^RAIN DIAMONDS/,
  '500000-carats': /^500 000 CARATS/,
  'noel-de-la-chance': /^Le Noël de la chance/,
  'mine-d-or': /^Mine d’or/,
  'mysteres-de-la-lampe': /^Les mystères de la lampe/,
};

let server: RunningServer;
let browser: Browser;
let base: string;
let nameCounter = 0;

/**
 * Records, in the page, when each feed line and the outcome first appeared on screen.
 */
async function recordTimes(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __feedAt: Record<string, number>; __outcomeAt?: number };
    w.__feedAt = {};
    new MutationObserver(() => {
      const now = performance.now();
      for (const li of document.querySelectorAll('[data-testid=feed] li')) {
        const text = li.textContent ?? '';
        if (w.__feedAt[text] === undefined) w.__feedAt[text] = now;
      }
      if (document.querySelector('[data-testid=outcome]')) w.__outcomeAt ??= now;
    }).observe(document, { subtree: true, childList: true });
  });
}

async function signIn(page: Page, name: string, at = base): Promise<void> {
  await page.goto(`${at}/?pace=0`);
  await page.getByLabel('Pseudonyme').fill(name);
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await page.getByRole('heading', { name: 'Jeux', exact: true }).waitFor(WAIT);
}

async function openGame(page: Page, game: string): Promise<void> {
  await page.getByRole('button', { name: GAME_BUTTONS[game]! }).click();
  await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
  await page.locator('[data-testid=balance][data-cents]:not([data-cents=""])').waitFor(WAIT);
}

async function balance(page: Page): Promise<number> {
  return Number(await page.getByTestId('balance').getAttribute('data-cents'));
}

async function buy(page: Page, game: string, stake: number, lamp: { colour?: string; symbol?: string } = { colour: 'or' }): Promise<void> {
  await page.getByRole('radio', { name: euroLabel(stake) }).check();
  if (game === 'mysteres-de-la-lampe') {
    if (lamp.colour) await page.getByLabel('« Votre couleur »').selectOption({ label: lamp.colour });
    if (lamp.symbol) await page.getByLabel('« Votre symbole »').selectOption({ label: lamp.symbol });
  }
  const events = page.locator('.stage[data-events]');
  const before = (await events.count()) > 0 ? await events.getAttribute('data-events') : null;
  await page.getByRole('button', { name: /^JOUER/ }).click();
  // The new unit's opening step is on screen: a first stage, or a new count of events.
  await page.waitForFunction((b) => {
    const count = document.querySelector('.stage[data-events]')?.getAttribute('data-events');
    return count !== undefined && count !== b;
  }, before, WAIT);
}

function euroLabel(stake: number): string {
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: stake % 100 === 0 ? 0 : 2 }).format(stake / 100);
}

async function shownEvents(page: Page): Promise<number> {
  return Number(await page.locator('.stage[data-events]').getAttribute('data-events'));
}

/** Waits until the screen shows more events than `before`. */
async function moreEvents(page: Page, before: number): Promise<void> {
  await page.waitForFunction((b) => Number(document.querySelector('.stage[data-events]')?.getAttribute('data-events')) > b, before, WAIT);
}

async function dragAcross(page: Page, from: string, over: string[]): Promise<void> {
  const center = async (selector: string) => {
    const box = (await page.locator(selector).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const start = await center(from);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (const sel of over) {
    const p = await center(sel);
    await page.mouse.move(p.x, p.y, { steps: 4 });
  }
  await page.mouse.up();
}

/** Reveals the bought unit through the UI, as a person would; resolves when the outcome shows. */
async function revealThroughUI(page: Page, game: string): Promise<void> {
  const outcome = page.getByTestId('outcome');
  switch (game) {
    case 'rain-diamonds':
      for (const box of [3, 1, 5, 2, 4]) {
        const before = await shownEvents(page);
        await page.getByRole('button', { name: `Case ${box}`, exact: true }).click();
        await moreEvents(page, before);
      }
      break;
    case '500000-carats': {
      let before = await shownEvents(page);
      await page.getByRole('button', { name: 'Découvrir les numéros gagnants' }).click();
      await moreEvents(page, before);
      // Two numbers one by one, then the rest row by row with a drag.
      for (const i of [0, 1]) {
        before = await shownEvents(page);
        await page.locator(`.scratch[data-index="${i}"]`).click();
        await moreEvents(page, before);
      }
      for (let row = 0; row < 4; row++) {
        const first = row === 0 ? 2 : row * 6;
        const cells = Array.from({ length: (row + 1) * 6 - first }, (_, k) => `.scratch[data-index="${first + k}"]`);
        before = await shownEvents(page);
        await dragAcross(page, cells[0]!, cells.slice(1));
        await moreEvents(page, before);
      }
      break;
    }
    case 'noel-de-la-chance':
      await page.getByRole('button', { name: 'cloche' }).click();
      break;
    case 'mine-d-or':
      // Each EXTRA stage one after another, until the unit is over.
      while (!(await outcome.isVisible())) {
        const extra = page.getByRole('button', { name: 'EXTRA', exact: true });
        await Promise.race([extra.waitFor(WAIT), outcome.waitFor(WAIT)]);
        if (await outcome.isVisible()) break;
        const before = await shownEvents(page);
        await extra.click();
        await moreEvents(page, before);
      }
      break;
    case 'mysteres-de-la-lampe': {
      // The rub gesture: back and forth over the lamp, the pointer held down.
      const box = (await page.locator('.lamp').boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 20, y);
      await page.mouse.down();
      for (let i = 0; i < 60 && !(await outcome.isVisible()); i++) {
        await page.mouse.move(i % 2 === 0 ? box.x + box.width - 20 : box.x + 20, y + (i % 3) * 5, { steps: 8 });
      }
      await page.mouse.up();
      break;
    }
  }
  await outcome.waitFor(WAIT);
}

async function tokenOf(page: Page): Promise<string> {
  const saved = await page.evaluate(() => sessionStorage.getItem('instant-games.session'));
  return (JSON.parse(saved!) as { token: string }).token;
}

async function history(page: Page): Promise<HistoryPage['units']> {
  const res = await fetch(`${base}/history?limit=5`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
  return ((await res.json()) as HistoryPage).units;
}

/** The recall of a unit the page played to its end. */
async function finishedRecallOf(page: Page, unitId: string): Promise<RecallRecord & { readonly prize: number }> {
  const res = await fetch(`${base}/history/${encodeURIComponent(unitId)}`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
  assert.equal(res.status, 200);
  const recall = (await res.json()) as RecallRecord;
  assert.ok(recall.status === 'finished' && recall.prize !== null, `unit ${unitId} is finished`);
  return { ...recall, prize: recall.prize };
}

describe('web page', function () {
  this.timeout(120_000);

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ DEMO_BALANCE_CENTS: String(DEMO), FEED_BATCH_MS: '0' });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is served at / with its bundle under 150 KB of compressed JavaScript', async () => {
    const res = await fetch(`${base}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(await res.text(), /<div id="app">/);
    const assets = join(WEB_DIST, 'assets');
    const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const gzipped = js.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
    console.log(`      page JavaScript: ${js.length} file(s), ${(gzipped / 1024).toFixed(1)} KB gzip`);
    assert.ok(gzipped <= 150 * 1024, `${gzipped} bytes of compressed JavaScript`);
  });

  it('becomes interactive on loopback (measured, reported)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(`${base}/?pace=0`);
    await page.getByLabel('Pseudonyme').waitFor(WAIT);
    const wall = Date.now() - started;
    const mounted = Number(await page.evaluate(() => document.documentElement.dataset['interactiveAt']));
    console.log(`      time to interactive: ${mounted} ms after navigation start (handlers attached); sign-in field visible ${wall} ms after goto`);
    assert.ok(mounted > 0);
    await page.goto(`${base}/?lang=en`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT);
    await context.close();
  });

  for (const table of PRIZE_TABLES) {
    it(`plays ${table.game} at ${table.stake} cents through the UI; the balance moves by the recalled prize; a watcher is sent each step after the player and ends with the same screen`, async () => {
      const name = `P${++nameCounter}`;
      // Each context talks to the server through its own tap: what the server sent it, and when.
      const [playerTap, watcherTap] = await Promise.all([WireTap.start(server.port), WireTap.start(server.port)]);
      const playerContext = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const watcherContext = await browser.newContext();
      const page = await playerContext.newPage();
      const watcher = await watcherContext.newPage();
      try {
        await signIn(page, name, `http://127.0.0.1:${playerTap.port}`);
        await openGame(page, table.game);
        await page.getByRole('button', { name: 'Ouvrir ma table aux spectateurs' }).click();
        await page.getByText('Votre table est ouverte aux spectateurs.').waitFor(WAIT);
        await watcher.goto(`http://127.0.0.1:${watcherTap.port}/?pace=0`);
        await watcher.getByRole('button', { name: `Regarder ${name}` }).click(WAIT);
        await watcher.getByText(`Vous regardez la table de ${name}`).waitFor(WAIT);
        await watcher.locator('.watch .connection[data-state=connected]').waitFor(WAIT);

        const before = await balance(page);
        const played = (async () => {
          await buy(page, table.game, table.stake);
          await revealThroughUI(page, table.game);
        })();
        await played;
        const shownPrize = Number(await page.getByTestId('outcome').getAttribute('data-prize'));
        const [line] = await history(page);
        const recall = await finishedRecallOf(page, line!.unitId);
        assert.equal(shownPrize, recall.prize, 'the outcome shown is the recalled prize');
        await page.waitForFunction(([b, delta]) => Number(document.querySelector('[data-testid=balance]')?.getAttribute('data-cents')) === b! + delta!, [before, recall.prize - table.stake], WAIT);

        // The watcher ends with the same events and draws the same screen.
        const total = recall.steps.reduce((n, s) => n + s.events.length, 0);
        await watcher.waitForFunction((n) => Number(document.querySelector('.stage[data-events]')?.getAttribute('data-events')) === n, total, WAIT);
        assert.equal(await shownEvents(page), total);
        // The server sent every step to the watcher after the player (checked at the wire).
        const lags = watcherLags(playerTap.patches, watcherTap.patches);
        assert.ok(lags.length > 0, 'the watcher was sent the steps as they came');
        console.log(`      the watcher was sent each step ${Math.min(...lags).toFixed(2)}–${Math.max(...lags).toFixed(2)} ms after the player`);
        assert.ok(lags.every((l) => l >= 0), `a patch was sent to the watcher ${(-Math.min(...lags)).toFixed(2)} ms before the player`);
        // The lamp's pick included: it comes in the unit's opening step.
        const screenText = (p: Page) => p.evaluate(() => document.querySelector('.stage > :first-child')!.textContent);
        assert.equal(await screenText(watcher), await screenText(page));
        if (table === PRIZE_TABLES.find((t) => t.game === table.game)) {
          await page.screenshot({ path: join(SCREENSHOTS, `${table.game}.png`), fullPage: true });
        }
      } finally {
        await playerContext.close();
        await watcherContext.close();
        await Promise.all([playerTap.close(), watcherTap.close()]);
      }
    });
  }

  it('plays both lamp units with one lamp: each rub advances both, and it opens once for both', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `L${++nameCounter}`);
      await openGame(page, 'mysteres-de-la-lampe');
      const before = await balance(page);
      await buy(page, 'mysteres-de-la-lampe', 50, { colour: 'bleu', symbol: 'lune' });
      assert.equal(await page.locator('.lampe-unit').count(), 2);
      assert.equal(await page.locator('.lamp').count(), 1, 'one lamp');
      // The keyboard way: « Frotter » four times.
      for (let i = 0; i < 4; i++) {
        const shown = await shownEvents(page);
        await page.getByRole('button', { name: 'Frotter' }).press('Enter');
        await moreEvents(page, shown);
      }
      await page.getByTestId('outcome').waitFor(WAIT);
      assert.equal(await page.getByText(/^La lampe révèle/).count(), 2, 'both units show what the lamp revealed');
      const units = (await history(page)).slice(0, 2);
      const recalls = await Promise.all(units.map((u) => finishedRecallOf(page, u.unitId)));
      for (const recall of recalls) {
        const rubs = recall.steps.flatMap((st) => st.events).filter((e) => e.type === 'rub_progress');
        assert.deepEqual(rubs.map((e) => (e as unknown as { progress: number }).progress), [25, 50, 75, 100], 'each rub reached both units');
        assert.equal(recall.steps.flatMap((st) => st.events).filter((e) => e.type === 'lamp_opened').length, 1);
      }
      const prize = recalls[0]!.prize + recalls[1]!.prize;
      assert.equal(Number(await page.getByTestId('outcome').getAttribute('data-prize')), prize);
      await page.waitForFunction((want) => Number(document.querySelector('[data-testid=balance]')?.getAttribute('data-cents')) === want, before - 100 + prize, WAIT);
    } finally {
      await context.close();
    }
  });

  it('plays by touch (a finger dragged over numbers, a finger rubbing the lamp) and announces each step to screen readers', async () => {
    const context = await browser.newContext({ hasTouch: true, viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const centre = async (selector: string) => {
      const box = (await page.locator(selector).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const announced = () => page.getByTestId('announce').innerText();
    try {
      await signIn(page, `T${++nameCounter}`);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      let shown = await shownEvents(page);
      await page.getByRole('button', { name: 'Découvrir les numéros gagnants' }).click();
      await moreEvents(page, shown);
      const first = await announced();
      assert.notEqual(first, '', 'the winning numbers are announced');
      // One finger across the first row: its six numbers in one step.
      const row = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => centre(`.scratch[data-index="${i}"]`)));
      shown = await shownEvents(page);
      await touch('touchStart', row[0]!.x, row[0]!.y);
      for (const p of row.slice(1)) await touch('touchMove', p.x, p.y);
      await touch('touchEnd');
      await moreEvents(page, shown);
      assert.equal(await page.locator('.scratch.scratched').count(), 6, 'the six numbers under the finger');
      assert.notEqual(await announced(), first, 'the new step is announced');
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      let [line] = await history(page);
      let recall = await finishedRecallOf(page, line!.unitId);
      assert.equal(await announced(), recall.prize > 0 ? `Gagné : ${euroLabel(recall.prize)}` : 'Perdu', 'the outcome is announced');

      // The lamp rubbed with a finger, back and forth, until it opens.
      await page.getByRole('button', { name: '← Retour' }).click();
      await openGame(page, 'mysteres-de-la-lampe');
      await buy(page, 'mysteres-de-la-lampe', 50);
      const lamp = (await page.locator('.lamp').boundingBox())!;
      const y = lamp.y + lamp.height / 2;
      await touch('touchStart', lamp.x + 20, y);
      for (let i = 0; i < 80 && !(await page.getByTestId('outcome').isVisible()); i++) {
        await touch('touchMove', i % 2 === 0 ? lamp.x + lamp.width - 20 : lamp.x + 20, y + (i % 3) * 5);
      }
      await touch('touchEnd');
      await page.getByTestId('outcome').waitFor(WAIT);
      [line] = await history(page);
      recall = await finishedRecallOf(page, line!.unitId);
      const rubs = recall.steps.flatMap((st) => st.events).filter((e) => e.type === 'rub_progress').length;
      assert.ok(rubs >= 2, `the finger's progress went as it rubbed (${rubs} rubs)`);
      assert.equal(await announced(), recall.prize > 0 ? `Gagné : ${euroLabel(recall.prize)}` : 'Perdu');
    } finally {
      await context.close();
    }
  });

  it("signs in in production with the operator's token in the address's fragment, and plays on the operator's deposit", async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const operatorToken = 'operator-secret-for-this-test-only';
    // Its own process: Colyseus's matchmaker is one per process.
    const production = await ChildServer.start({
      name: 'production server',
      script: 'src/server/main.ts',
      port: await freePort(),
      env: { JWT_PUBLIC_KEY: await exportSPKI(publicKey), DEV_LOGIN: 'false', OPERATOR_TOKEN: operatorToken },
    });
    const at = production.url;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const playerId = `acct-${++nameCounter}`;
      const deposit = await fetch(`${at}/admin/wallets/${playerId}/deposit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken}` },
        body: JSON.stringify({ amount: 2_000, requestId: 'dep_1' }),
      });
      assert.equal(deposit.status, 200);
      const jwt = await new SignJWT({ name: 'Zoé' }).setProtectedHeader({ alg: 'RS256' }).setSubject(playerId).setIssuedAt().setExpirationTime('1h').sign(privateKey);
      await page.goto(`${at}/?pace=0#token=${jwt}`);
      await page.getByRole('heading', { name: 'Jeux', exact: true }).waitFor(WAIT);
      assert.equal(new URL(page.url()).hash, '', 'the token left the address bar');
      const devLogin = await fetch(`${at}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
      assert.notEqual(devLogin.status, 200, 'no dev login in production');
      await openGame(page, 'rain-diamonds');
      assert.equal(await balance(page), 2_000, "the operator's deposit");
      await buy(page, 'rain-diamonds', 50);
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      const res = await fetch(`${at}/history?limit=1`, { headers: { authorization: `Bearer ${jwt}` } });
      const [unit] = ((await res.json()) as { units: { prize: number }[] }).units;
      await page.waitForFunction((cents) => Number(document.querySelector('[data-testid=balance]')?.getAttribute('data-cents')) === cents, 2_000 - 50 + unit!.prize, WAIT);
      // A token signed by anyone else is refused, in words.
      const stranger = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setSubject(playerId).setIssuedAt().setExpirationTime('1h').sign((await generateKeyPair('RS256')).privateKey);
      const other = await context.newPage();
      await other.goto(`${at}/?pace=0#token=${stranger}`);
      await other.getByRole('button', { name: GAME_BUTTONS['rain-diamonds']! }).click();
      await other.locator('.error').waitFor(WAIT);
      assert.match(await other.locator('.error').innerText(), /^Ce jeton n’est pas valide./);
    } finally {
      await context.close();
      await production.stop();
    }
  });

  it('resumes at the same step after a reload mid-reveal', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `R${++nameCounter}`);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      let shown = await shownEvents(page);
      await page.getByRole('button', { name: 'Découvrir les numéros gagnants' }).click();
      await moreEvents(page, shown);
      for (const i of [4, 9, 13]) {
        shown = await shownEvents(page);
        await page.locator(`.scratch[data-index="${i}"]`).click();
        await moreEvents(page, shown);
      }
      const screen = await page.locator('.carats').innerText();
      const events = await shownEvents(page);
      await page.reload();
      await page.getByText('Partie reprise là où elle s’était arrêtée.').waitFor(WAIT);
      await page.locator('.stage[data-events]').waitFor(WAIT);
      assert.equal(await shownEvents(page), events, 'the same step');
      assert.equal(await page.locator('.carats').innerText(), screen, 'the same screen');
      assert.equal(await page.locator('.scratch.scratched').count(), 3);
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      assert.equal(await page.locator('.scratch.scratched').count(), 24);
    } finally {
      await context.close();
    }
  });

  it('replays a past unit step by step from the history', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `H${++nameCounter}`);
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      await revealThroughUI(page, 'rain-diamonds');
      const [line] = await history(page);
      const recall = await finishedRecallOf(page, line!.unitId);
      await page.getByRole('button', { name: `Revoir ${line!.unitId}` }).click();
      await page.getByTestId('recall-step').waitFor(WAIT);
      assert.equal(await page.getByTestId('recall-step').innerText(), `Étape 1 sur ${recall.steps.length}`);
      assert.equal(await page.locator('.box-open').count(), 0, 'step 1 is the purchase: no box open');
      for (let step = 2; step <= recall.steps.length; step++) {
        await page.getByRole('button', { name: 'Suivant' }).click();
        await page.getByText(`Étape ${step} sur ${recall.steps.length}`).waitFor(WAIT);
        assert.equal(await page.locator('.box-open').count(), step - 1, 'one more box each step');
      }
      assert.equal(Number(await page.getByTestId('recall-outcome').getAttribute('data-prize')), recall.prize);
      assert.ok(await page.getByRole('button', { name: 'Suivant' }).isDisabled());
    } finally {
      await context.close();
    }
  });

  it("shows a win in the feed after the player's screen shows it", async () => {
    const name = `F${++nameCounter}`;
    const context = await browser.newContext();
    await recordTimes(context);
    const page = await context.newPage();
    try {
      await signIn(page, name);
      await openGame(page, 'mysteres-de-la-lampe');
      // Lamp rounds with both units (≈ 44 % win a round) until one wins.
      for (let round = 0; round < 40; round++) {
        await buy(page, 'mysteres-de-la-lampe', 50, { colour: 'rouge', symbol: 'clé' });
        await page.evaluate(() => delete (window as unknown as { __outcomeAt?: number }).__outcomeAt);
        await page.getByRole('button', { name: 'AUTO' }).click();
        await page.getByTestId('outcome').waitFor(WAIT);
        if (Number(await page.getByTestId('outcome').getAttribute('data-prize')) > 0) break;
      }
      const prize = Number(await page.getByTestId('outcome').getAttribute('data-prize'));
      assert.ok(prize > 0, 'a win within 40 rounds');
      const line = page.getByTestId('feed').locator('li', { hasText: name }).first();
      await line.waitFor(WAIT);
      const text = await line.textContent();
      const { feedAt, outcomeAt } = await page.evaluate((t) => {
        const w = window as unknown as { __feedAt: Record<string, number>; __outcomeAt: number };
        return { feedAt: w.__feedAt[t!], outcomeAt: w.__outcomeAt };
      }, text);
      assert.ok(feedAt! >= outcomeAt, 'the feed shows the win after the outcome');
    } finally {
      await context.close();
    }
  });

  it('never sends more than 17 messages a second, however fast a player clicks (the flood limit is 50)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Every WebSocket frame the page sends, timed by the browser (seconds).
    const sent: number[] = [];
    const cdp = await context.newCDPSession(page);
    cdp.on('Network.webSocketFrameSent', (e: { timestamp: number }) => sent.push(e.timestamp));
    await cdp.send('Network.enable');
    try {
      await signIn(page, `C${++nameCounter}`);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      const shown = await shownEvents(page);
      await page.getByRole('button', { name: 'Découvrir les numéros gagnants' }).click();
      await moreEvents(page, shown);
      // 24 keyboard activations in one go (a click with no pointer, as Enter gives).
      const from = sent.length;
      await page.evaluate(() => {
        for (const cell of document.querySelectorAll<HTMLButtonElement>('.scratch')) cell.click();
      });
      await page.getByTestId('outcome').waitFor(WAIT);
      const storm = sent.slice(from);
      const busiest = Math.max(...storm.map((t) => storm.filter((u) => u >= t && u < t + 1).length));
      console.log(`      ${storm.length} frames sent for 24 activations; busiest second: ${busiest}`);
      assert.ok(storm.length >= 24);
      assert.ok(busiest <= 17, `${busiest} frames in one second`);
      assert.equal(await page.locator('.table .connection').getAttribute('data-state'), 'connected');
      assert.equal(await page.locator('.scratch.scratched').count(), 24);
    } finally {
      await context.close();
    }
  });

  it('shows a refusal as a sentence', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `E${++nameCounter}`);
      await openGame(page, 'noel-de-la-chance');
      // Two purchases sent back to back: the second is refused while the first is unfinished.
      await page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('.buy-button')!;
        button.click();
        button.click();
      });
      await page.getByRole('alert').filter({ hasText: 'Terminez d’abord la partie en cours.' }).waitFor(WAIT);
    } finally {
      await context.close();
    }
  });

  it("plays AUTO at a person's pace: the steps sent at once come on screen one by one", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `A${++nameCounter}`);
      await page.goto(`${base}/?pace=40`);
      await openGame(page, '500000-carats');
      await buy(page, '500000-carats', 500);
      const start = await shownEvents(page);
      await page.getByRole('button', { name: 'AUTO' }).click();
      // 26 events (winning numbers, 24 numbers, the result) arrive in one step.
      const seen = new Set<number>();
      while (!(await page.getByTestId('outcome').isVisible())) seen.add(await shownEvents(page));
      const between = [...seen].filter((n) => n > start && n < start + 26);
      assert.ok(between.length >= 5, `intermediate counts seen: ${between.join(', ')}`);
    } finally {
      await context.close();
    }
  });

  it('shows the connection state: reconnecting after a drop, connected again on the same seat', async () => {
    const name = `D${++nameCounter}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, name);
      await openGame(page, 'rain-diamonds');
      const joinedAt = Date.now();
      await buy(page, 'rain-diamonds', 50);
      const shown = await shownEvents(page);
      await page.getByRole('button', { name: 'Case 1', exact: true }).click();
      await moreEvents(page, shown);
      // The SDK reconnects only a room up for 5 s at least (its minUptime): wait for that much.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, joinedAt + 5_500 - Date.now())));
      // The network cut, from the server's side: the player's TCP socket is destroyed.
      const [room] = (await matchMaker.query({ name: 'table' })).filter((r) => (r.metadata as { pseudonym?: string }).pseudonym === name);
      const table = matchMaker.getLocalRoomById(room!.roomId)!;
      for (const client of table.clients) (client.ref as unknown as { _socket: { destroy(): void } })._socket.destroy();
      await page.locator('.table .connection[data-state=reconnecting]').waitFor(WAIT);
      assert.equal(await page.locator('.table .connection').innerText(), 'Reconnexion…');
      await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
      const again = await shownEvents(page);
      await page.getByRole('button', { name: 'Case 2', exact: true }).click();
      await moreEvents(page, again);
    } finally {
      await context.close();
    }
  });

  it("shows each game's rules, règlement title and prize tables as the catalog gives them", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `G${++nameCounter}`);
      for (const game of gameCatalog()) {
        await openGame(page, game.id);
        for (const price of game.prices) {
          await page.getByRole('radio', { name: euroLabel(price.stake) }).check();
          const rules = page.locator('details.rules');
          if ((await rules.getAttribute('open')) === null) await rules.locator('summary').click();
          assert.deepEqual(await rules.locator('p.rule').allInnerTexts(), game.rules.map((r) => r.fr));
          assert.equal(await rules.locator('.reglement-title').innerText(), `Règlement : ${game.reglement.title}`);
          const rows = await rules.locator('table').first().locator('tbody tr').allInnerTexts();
          assert.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').trim()), price.tiers.map((t) => `${euroLabel(t.prize)} ${new Intl.NumberFormat('fr-FR').format(t.count)}`.replace(/\s+/g, ' ')));
        }
        await page.getByRole('button', { name: '← Retour' }).click();
      }
    } finally {
      await context.close();
    }
  });
});
