import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { matchMaker } from '@colyseus/core';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { maskPseudonym } from '../../src/feed/win-feed';
import { gameCatalog } from '../../src/games/catalog';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import type { RunningServer } from '../../src/server/app';
import { WEB_DIST } from '../../src/server/web-page';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { WireTap, watcherLags } from './wire-tap';
import * as ui from './ui';
import { assertAccessible, balance, buy, euroLabel, GAME_BUTTONS, moreEvents, mouse, openGame, openToWatchers, pageTop, revealThroughUI, shownEvents, WAIT, showTab } from './ui';
import { ChildServer } from '../../tools/server-process';
import { freePort } from '../../tools/redis-server';

/**
 * The page in a real Chromium against an embedded server: a person signs in, buys and
 * reveals through the UI (clicks, drags, the rub gesture), and what the screen shows is
 * checked against the server's recall. The test server's pace is 0 (PACE_STEP_MS): the steps play without the on-screen pacing.
 */

const DEMO = 1_000_000;

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

const signIn = (page: Page, name: string, at = base) => ui.signIn(page, name, at);
const history = (page: Page) => ui.history(page, base);
const recallOf = (page: Page, unitId: string) => ui.recallOf(page, base, unitId);

describe('web page', function () {
  this.timeout(120_000);

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ DEMO_BALANCE_CENTS: String(DEMO), FEED_BATCH_MS: '0' });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is served like a product: brotli or gzip copies made at build, hashed assets kept a year, the page always asked again, a favicon, ≤ 150 KB of compressed JavaScript at first load, the verifier in a chunk of its own', async () => {
    const page = await fetch(`${base}/`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(page.headers.get('content-encoding'), 'br');
    // What browsers send (Chromium, Firefox): gzip named before br at the same weight.
    const asBrowsersAsk = await fetch(`${base}/`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    assert.equal(asBrowsersAsk.headers.get('content-encoding'), 'br', 'the smaller copy, whatever the order');
    await asBrowsersAsk.arrayBuffer();
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    assert.match(html, /<div id="app">/);
    const assets = readdirSync(join(WEB_DIST, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    // The first load is what index.html names; the rest are chunks loaded on demand (« Vérifier »'s core).
    const firstLoad = new Set([...html.matchAll(/\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
    const verifier = assets.filter((f) => f.startsWith('verification-core-') && f.endsWith('.js'));
    assert.equal(verifier.length, 1, 'the verifier is a chunk of its own');
    assert.ok(!firstLoad.has(verifier[0]!), 'the verifier is not in the first load');
    const sizes = { js: { raw: 0, br: 0, gz: 0 }, css: { raw: 0, br: 0, gz: 0 }, later: { raw: 0, br: 0, gz: 0 } };
    for (const file of assets) {
      for (const encoding of ['br', 'gzip', 'identity'] as const) {
        const res = await fetch(`${base}/assets/${file}`, { headers: { 'accept-encoding': encoding } });
        assert.equal(res.status, 200, file);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
        assert.equal(res.headers.get('content-encoding') ?? 'identity', encoding, `${file} sent ${encoding}`);
        assert.match(res.headers.get('content-type') ?? '', file.endsWith('.js') ? /javascript/ : /css/);
        // fetch() decodes what it is sent: the sizes sent are those of the files the build wrote.
        const sent = join(WEB_DIST, 'assets', file + (encoding === 'identity' ? '' : encoding === 'br' ? '.br' : '.gz'));
        assert.equal((await res.arrayBuffer()).byteLength, statSync(join(WEB_DIST, 'assets', file)).size, `${file} decoded whole`);
        sizes[!firstLoad.has(file) ? 'later' : file.endsWith('.js') ? 'js' : 'css'][encoding === 'identity' ? 'raw' : encoding === 'br' ? 'br' : 'gz'] += statSync(sent).size;
      }
    }
    const favicon = await fetch(`${base}/favicon.ico`);
    assert.equal(favicon.status, 200);
    assert.match(favicon.headers.get('content-type') ?? '', /image\/svg\+xml/);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`      First load: JavaScript ${kb(sizes.js.raw)}, ${kb(sizes.js.br)} brotli, ${kb(sizes.js.gz)} gzip; CSS ${kb(sizes.css.raw)}, ${kb(sizes.css.br)} brotli; HTML ${html.length} bytes. On demand (the verifier): ${kb(sizes.later.raw)}, ${kb(sizes.later.br)} brotli, ${kb(sizes.later.gz)} gzip`);
    assert.ok(sizes.js.gz <= 150 * 1024, `${sizes.js.gz} bytes of gzip JavaScript`);
  });

  it('becomes interactive, and reports how long it took on loopback and on a throttled profile (the 1 s target is a measurement, docs/client.md, not a gate on a shared machine)', async () => {
    const load = async (throttled: boolean) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (throttled) {
        // A mid-range phone on a fast 3G: CPU 4× slower, 1.6 Mb/s down, 150 ms of latency.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
      }
      await page.goto(`${base}/`);
      await page.getByLabel('Pseudonyme').waitFor(WAIT);
      const interactive = Number(await page.evaluate(() => document.documentElement.dataset['interactiveAt']));
      await context.close();
      return interactive;
    };
    // The best of three cold loads: on a shared machine one load can be slowed by another's work.
    const loopback = Math.min(await load(false), await load(false), await load(false));
    const throttled = await load(true);
    console.log(`      interactive ${loopback} ms after navigation start on loopback (best of three cold loads); ${throttled} ms throttled (4× CPU, fast 3G)`);
    assert.ok(loopback > 0 && throttled > 0, 'the page marks the moment it became interactive');
  });

  it('answers in English with ?lang=en', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/?lang=en`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT);
    await page.getByRole('heading', { name: 'Games', exact: true }).waitFor(WAIT);
    await context.close();
  });

  for (const table of PRIZE_TABLES) {
    it(`plays ${table.game} at ${table.stake} cents through the UI; the balance moves by the recalled prize; a watcher is sent each step after the player and ends with the same screen`, async () => {
      const name = `P${++nameCounter}`;
      // Each context talks to the server through its own tap: what the server sent it, and when.
      const [playerTap, watcherTap] = await Promise.all([WireTap.start(server.port), WireTap.start(server.port)]);
      const playerContext = await browser.newContext(ui.DESKTOP);
      const watcherContext = await browser.newContext();
      const page = await playerContext.newPage();
      const watcher = await watcherContext.newPage();
      try {
        await signIn(page, name, `http://127.0.0.1:${playerTap.port}`);
        await openGame(page, table.game);
        const room = await openToWatchers(page, `http://127.0.0.1:${server.port}`);
        await watcher.goto(`http://127.0.0.1:${watcherTap.port}/`);
        // « Tables ouvertes » names the player as the win feed does, masked.
        await watcher.getByRole('button', { name: `Regarder ${maskPseudonym(name)}` }).and(watcher.locator(`[data-room-id="${room}"]`)).click(WAIT);
        await watcher.getByText(`Vous regardez la table de ${maskPseudonym(name)}`).waitFor(WAIT);
        assert.equal(await watcher.getByText(name, { exact: true }).count(), 0, 'the full pseudonym nowhere on the watcher’s page');
        await watcher.locator('.watch .connection[data-state=connected]').waitFor(WAIT);

        const before = await balance(page);
        // The first price of each game is also checked by axe-core before, during and after, and for jumps.
        const checked = table === PRIZE_TABLES.find((t) => t.game === table.game);
        const where = (moment: string) => `${table.game} ${moment}, desktop`;
        if (checked) await assertAccessible(page, where('before buying'));
        const stageTop = await pageTop(page, '.stage');
        const controlsTop = await pageTop(page, '.controls');
        await buy(page, table.game, table.stake);
        assert.equal(await pageTop(page, '.stage'), stageTop, 'the board does not move at purchase');
        assert.equal(await pageTop(page, '.controls'), controlsTop, 'nor do the buttons under it');
        await revealThroughUI(page, table.game, mouse(page), checked ? () => assertAccessible(page, where('mid-reveal')) : undefined);
        assert.equal(await pageTop(page, '.stage'), stageTop, 'the board does not move at the end');
        // Mine d’or adds its Extra grids above the buttons, one by one: the only growth.
        if (table.game !== 'mine-d-or') assert.equal(await pageTop(page, '.controls'), controlsTop, 'nor do the buttons at the end');
        const shownPrize = Number(await page.getByTestId('outcome').getAttribute('data-prize'));
        const [line] = await history(page);
        const recall = await recallOf(page, line!.unitId);
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
        if (checked) await assertAccessible(page, where('finished'));
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
      await buy(page, 'mysteres-de-la-lampe', 50, { colour: 'bleue', symbol: 'lune' });
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
      const recalls = await Promise.all(units.map((u) => recallOf(page, u.unitId)));
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

  it("signs in in production with the operator's token in the address's fragment, and plays on the operator's deposit", async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const operatorToken = 'operator-secret-for-this-test-only';
    // Its own process: Colyseus's matchmaker is one per process.
    const production = await ChildServer.start({
      name: 'production server',
      script: 'src/server/main.ts',
      port: await freePort(),
      env: { JWT_PUBLIC_KEY: await exportSPKI(publicKey), DEV_LOGIN: 'false', OPERATOR_TOKEN: operatorToken, PACE_UNIT_MS: '0', PACE_STEP_MS: '0' },
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
      await page.goto(`${at}/#token=${jwt}`);
      await page.getByRole('heading', { name: 'Jeux', exact: true }).waitFor(WAIT);
      await ui.setFirstLimits(page);
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
      await other.goto(`${at}/#token=${stranger}`);
      await other.getByRole('button', { name: GAME_BUTTONS['rain-diamonds']! }).click();
      await other.locator('.error').waitFor(WAIT);
      assert.match(await other.locator('.error').innerText(), /^Ce jeton n’est pas valide./);
    } finally {
      await context.close();
      await production.stop();
    }
  });

  it('shows the sign-in with a sentence when the link\'s #token cannot be read, and signs in from there', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('pageerror', (err) => failures.push(err.message));
    try {
      await page.goto(`${base}/#token=%E0%A4%A`);
      await page.getByRole('heading', { name: 'Se connecter' }).waitFor(WAIT);
      assert.match(await page.getByRole('alert').innerText(), /^Le lien qui vous a mené ici porte une connexion illisible/);
      assert.equal(new URL(page.url()).hash, '', 'the broken token left the address bar');
      assert.deepEqual(failures, [], 'no script error');
      await page.getByLabel('Pseudonyme').fill(`F${++nameCounter}`);
      await page.getByRole('button', { name: 'Jouer', exact: true }).click();
      // Signed in: the balance shows (the lobby's « Jeux » is there before signing in too).
      await page.getByTestId('balance').waitFor(WAIT);
      assert.deepEqual(await page.getByRole('alert').allInnerTexts(), [], 'the sentence is gone once signed in');
    } finally {
      await context.close();
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
      const recall = await recallOf(page, line!.unitId);
      await showTab(page, 'Historique');
      await page.locator(`[data-unit-id="${line!.unitId}"]`).click();
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
      const line = page.getByTestId('feed').locator('li', { hasText: maskPseudonym(name) }).first();
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

  it("plays AUTO at the server's pace: the steps sent at once come on screen one by one, whatever the address says", async () => {
    // Its own process: Colyseus's matchmaker is one per process.
    const paced = await ChildServer.start({ name: 'paced server', script: 'src/server/main.ts', port: await freePort(), env: { PACE_STEP_MS: '40', PACE_UNIT_MS: '0', DEMO_BALANCE_CENTS: String(DEMO) } });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `A${++nameCounter}`, paced.url);
      // The old switch of the page's address changes nothing: the pace is the server's.
      await page.goto(`${paced.url}/?pace=0`);
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
      await paced.stop();
    }
  });

  it('shows the connection state: reconnecting after a drop, connected again on the same seat', async () => {
    const name = `D${++nameCounter}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, name);
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      const shown = await shownEvents(page);
      await page.locator('.box[aria-label="Case 1"]').click();
      await moreEvents(page, shown);
      // The network cut, from the server's side: the player's TCP socket is destroyed.
      const [room] = (await matchMaker.query({ name: 'table' })).filter((r) => (r.metadata as { pseudonym?: string }).pseudonym === name);
      const table = matchMaker.getLocalRoomById(room!.roomId)!;
      for (const client of table.clients) (client.ref as unknown as { _socket: { destroy(): void } })._socket.destroy();
      await page.locator('.table .connection[data-state=reconnecting]').waitFor(WAIT);
      assert.match(await page.locator('.table .connection').innerText(), /^Reconnexion…/);
      await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
      assert.equal(table.clients.length, 1, 'the same table, its seat taken back');
      const again = await shownEvents(page);
      await page.locator('.box[aria-label="Case 2"]').click();
      await moreEvents(page, again);
    } finally {
      await context.close();
    }
  });

  it("shows each game's rules, règlement title and prize tables (with each tier's odds) as the catalog gives them", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, `G${++nameCounter}`);
      for (const game of gameCatalog(() => ({ unitMs: 0, stepMs: 0 }))) {
        await openGame(page, game.id);
        for (const price of game.prices) {
          await page.getByRole('radio', { name: euroLabel(price.stake) }).check();
          const rules = page.locator('details.rules');
          if ((await rules.getAttribute('open')) === null) await rules.locator('summary').click();
          assert.deepEqual(await rules.locator('p.rule').allInnerTexts(), game.rules.map((r) => r.fr));
          assert.equal(await rules.locator('.reglement-title').innerText(), `Règlement\u202f: ${game.reglement.title}`);
          const rows = await rules.locator('table').first().locator('tbody tr').allInnerTexts();
          assert.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').trim()), price.tiers.map((t) => `${euroLabel(t.prize)} ${new Intl.NumberFormat('fr-FR').format(t.count)} 1 sur ${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(price.blockSize / t.count)}`.replace(/\s+/g, ' ')));
        }
        await page.getByRole('button', { name: '← Retour' }).click();
      }
    } finally {
      await context.close();
    }
  });
});
