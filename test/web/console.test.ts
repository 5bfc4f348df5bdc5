import { strict as assert } from 'node:assert';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Room } from '@colyseus/sdk';
import type { Browser, Page } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import type { RunningServer } from '../../src/server/app';
import { playUnits } from '../reports/support/play-units';
import { anonymous } from '../rooms/helpers';
import { devLogin, startTestServer, type TestPlayer } from '../support/game-server';
import { launchBrowser } from './browser';
import { assertAccessible, assertNoSidewaysScroll, DESKTOP, PHONE, screenshotPath, WAIT } from './ui';

/**
 * The operator's console at /console/ on a laptop and a phone, on a server with real data: a
 * day and a half of units played through the play service on every game and price, a player
 * blocked, a player at a table with a watcher and a feed spectator. Signed in with the operator
 * token only; every chart drawn; axe-core finds nothing serious, tables opened or not.
 */

const OPERATOR = 'operator-token-for-the-console-test';
const CHARTS = ['chart-sales', 'chart-live', 'chart-payout', 'chart-stock'];
/**
 * uPlot formats numbers with `navigator.language`, which a headless Chromium under LANG=C
 * reports as `en-US@posix`, a tag Intl refuses: the contexts say the operator's language.
 */
const LOCALE = { locale: 'fr-FR' } as const;

/** Pixels of a chart's canvas that are not blank: its lines, bars and band, over its grid. */
async function drawnPixels(page: Page, id: string): Promise<number> {
  return page.evaluate((chart) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`#${chart} canvas`)!;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    // Coloured: not grey (the grid and axes are grey or black).
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 40) coloured++;
    return coloured;
  }, id);
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the operator console', function () {
  this.timeout(240_000);
  let server: RunningServer;
  let browser: Browser;
  let player: TestPlayer;
  const rooms: Room[] = [];
  let base: string;

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ OPERATOR_TOKEN: OPERATOR, ARCHIVE_DIR: await mkdtemp(join(tmpdir(), 'console-archive-')) });
    base = `http://127.0.0.1:${server.port}`;
    const { dealer, actions, now } = server.services;
    await playUnits(dealer, actions, { count: 180, start: now() - 36 * 3_600_000, everyMs: 12 * 60_000, tables: PRIZE_TABLES, players: ['ana', 'bob', 'cleo', 'dan', 'eve'] });
    await dealer.protections.changeProtection('bob', { what: 'block', reason: 'identity', until: null }, now());
    player = await devLogin(server, 'Tablier');
    const table = await player.client.create('table', { game: 'rain-diamonds' });
    table.onMessage('*', () => undefined);
    await table.request('watchers', { open: true });
    rooms.push(table, await anonymous(server).joinOrCreate('watch', { table: table.roomId }), await anonymous(server).joinOrCreate('feed'));
    browser = await launchBrowser();
  });
  after(async () => {
    await Promise.all(rooms.map((r) => r.leave().catch(() => undefined)));
    await browser?.close();
    await server?.stop();
  });

  it('is a page of its own: /console leads to it, and the player’s page loads nothing of it', async () => {
    const consolePage = await fetch(`${base}/console`);
    assert.equal(consolePage.status, 200);
    assert.match(consolePage.url, /\/console\/$/);
    const html = await consolePage.text();
    const own = [...html.matchAll(/\/assets\/(console-[^"]+\.js)"/g)].map((m) => m[1]!);
    assert.equal(own.length, 1, 'the console’s bundle');
    const playerPage = await (await fetch(`${base}/`)).text();
    assert.doesNotMatch(playerPage, /console-/, 'the player’s page names no console asset');
  });

  it('refuses a player’s token, and takes the operator’s', async () => {
    const context = await browser.newContext({ ...DESKTOP, ...LOCALE });
    const page = await context.newPage();
    await page.goto(`${base}/console/`);
    await signIn(page, player.token);
    await page.getByRole('alert').filter({ hasText: 'Refused: this token is not the operator’s.' }).waitFor(WAIT);
    assert.equal(await page.locator('#chart-sales').count(), 0, 'no report shown');
    await signIn(page, OPERATOR);
    await page.locator('#chart-sales').waitFor(WAIT);
    await context.close();
  });

  for (const [screen, device] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`draws every chart with the server’s figures on a ${screen}, readable by axe-core, each chart’s data as a table`, async () => {
      const context = await browser.newContext({ ...device, ...LOCALE });
      const page = await context.newPage();
      await page.goto(`${base}/console/`);
      await signIn(page, OPERATOR);
      for (const id of CHARTS) {
        await page.waitForFunction((chart) => Number(document.getElementById(chart)?.dataset['points'] ?? 0) > 0 && !!document.querySelector(`#${chart} canvas`), id, WAIT);
        assert.ok((await drawnPixels(page, id)) > 10, `${id} drawn`);
      }
      // The figures behind the charts are the reports': 180 units in the hours' table.
      const hourRows = await page.locator('#chart-sales').locator('xpath=..').locator('tbody tr').count();
      assert.ok(hourRows >= 30, `${hourRows} hours of sales`);
      await page.getByRole('heading', { name: 'Protection journal' }).waitFor(WAIT);
      assert.equal(await page.locator('section[aria-label="Protection journal"] tbody tr').count(), 1);
      assert.match(await page.locator('#chart-live').getAttribute('aria-label') ?? '', /Now 1 players, 1 watchers, 1 feed spectators/);
      await assertNoSidewaysScroll(page, `console, ${screen}`);
      await assertAccessible(page, `console, ${screen}`);
      await page.screenshot({ path: screenshotPath(`console-${screen}`), fullPage: true });
      for (const details of await page.locator('details').all()) await details.locator('summary').click();
      await assertAccessible(page, `console with its charts’ tables open, ${screen}`);
      await assertNoSidewaysScroll(page, `console with its tables open, ${screen}`);
      await context.close();
    });
  }
});
