import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { startCluster, type Cluster } from '../../scripts/start-cluster';
import { maskPseudonym } from '../../src/feed/win-feed';
import { freePort, RedisServer } from '../../tools/redis-server';
import { launchBrowser } from './browser';
import { openTab, type Tab } from './tab';
import { buy, moreEvents, openGame, shownEvents, showTab, signIn, tokenOf, WAIT } from './ui';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';

const ENV = {
  JWT_SECRET: 'web-cluster-secret-of-at-least-thirty-two-chars',
  CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(),
  DEV_LOGIN: 'true',
  DEV_LOGIN_PER_MINUTE: '100000',
  EMISSION_BLOCKS: '2',
  REDIS_PREFIX: 'webcluster',
  FEED_BATCH_MS: '0',
  PACE_UNIT_MS: '0',
  PACE_STEP_MS: '0',
};

/** The players, one per process: « Tables ouvertes » masks pseudonyms to their first three letters (« Ali*** »), each differs there. */
const PLAYERS = ['Alice', 'Bruno', 'Carla'];
const originOf = (url: string) => new URL(url).host;
/** The room a WebSocket URL names (`…/<processId>/<roomId>?…`). */
const roomOf = (url: string) => new URL(url).pathname.split('/').at(-1);

describe('the page on a deployment of three processes, each its own origin', function () {
  this.timeout(180_000);
  let redis: RedisServer;
  let cluster: Cluster;
  let browser: Browser;
  let origins: string[];
  const tabs: Tab[] = [];

  before(async function () {
    this.timeout(180_000);
    buildWebIfStale();
    redis = await RedisServer.start();
    const ports = [await freePort(), await freePort(), await freePort()];
    cluster = await startCluster({ ports, env: { ...ENV, REDIS_URL: redis.url }, onLine: () => undefined });
    origins = ports.map((port) => `http://127.0.0.1:${port}`);
    browser = await launchBrowser();
  });
  after(async function () {
    this.timeout(60_000);
    for (const tab of tabs) await tab.context.close();
    await browser?.close();
    await cluster?.stop();
    await redis?.stop();
  });

  it('plays and watches tables wherever they live, the feed connected on every page, with nothing blocked by the CSP', async () => {
    // Three players, one per origin, each with a table open to watchers; three watchers, one per
    // origin, each watching the next player's table. A table lives on one process, the feed on
    // one: whichever it is, some of these pages reach another origin than their own.
    const players: Tab[] = [];
    for (const [i, origin] of origins.entries()) {
      const tab = await openTab(browser, origin);
      tabs.push(tab);
      players.push(tab);
      await signIn(tab.page, PLAYERS[i]!, origin);
      await openGame(tab.page, 'rain-diamonds');
      await buy(tab.page, 'rain-diamonds', 50);
      const shown = await shownEvents(tab.page);
      await tab.page.locator('.box[aria-label="Case 1"]').click();
      await moreEvents(tab.page, shown);
      await showTab(tab.page, 'Spectateurs');
      await tab.page.getByRole('button', { name: 'Ouvrir ma table aux spectateurs' }).click();
      await tab.page.locator('.watchers-line button[aria-pressed=true]').waitFor(WAIT);
    }
    for (const [i, origin] of origins.entries()) {
      const tab = await openTab(browser, origin);
      tabs.push(tab);
      await signIn(tab.page, `Spectateur${i}`, origin);
      await tab.page.getByRole('button', { name: `Regarder ${maskPseudonym(PLAYERS[(i + 1) % origins.length]!)}` }).click();
      await tab.page.locator('.table.watch .connection[data-state=connected]').waitFor(WAIT);
      await tab.page.locator('.table.watch .stage[data-events]').waitFor(WAIT);
    }
    for (const tab of tabs) {
      await tab.page.locator('.feed .connection[data-state=connected]').waitFor(WAIT);
      assert.deepEqual(tab.violations, [], `${tab.origin}: nothing blocked`);
    }
    const elsewhere = tabs.flatMap((tab) => tab.sockets.filter((url) => originOf(url) !== originOf(tab.origin)));
    assert.ok(elsewhere.length >= origins.length, `sockets to another origin than the page's: ${elsewhere.join(', ')}`);
  });

  it('sends no player token and no reconnection token in any request line: sign-in, play, a cut connection and the seat taken back', async () => {
    const tab = await openTab(browser, origins[1]!);
    tabs.push(tab);
    await signIn(tab.page, 'Discret', tab.origin);
    await tab.page.locator('.feed .connection[data-state=connected]').waitFor(WAIT);
    const lobbySockets = tab.sockets.length;
    await openGame(tab.page, 'rain-diamonds');
    const table = roomOf(tab.sockets[lobbySockets]!);
    await buy(tab.page, 'rain-diamonds', 50);
    let shown = await shownEvents(tab.page);
    await tab.page.locator('.box[aria-label="Case 1"]').click();
    await moreEvents(tab.page, shown);
    const before = tab.sockets.length;

    // The table's socket is cut (not a consented leave): the page joins its table again by id.
    await tab.page.evaluate((roomId) => {
      for (const socket of (window as unknown as { sockets: WebSocket[] }).sockets) if (socket.url.includes(`/${roomId}?`)) socket.close(4010);
    }, table);
    await tab.page.waitForFunction(() => document.querySelector('.table .connection')?.getAttribute('data-state') !== 'connected', undefined, WAIT).catch(() => undefined);
    await tab.page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
    shown = await shownEvents(tab.page);
    await tab.page.locator('.box[aria-label="Case 2"]').click();
    await moreEvents(tab.page, shown);

    assert.ok(tab.sockets.slice(before).map(roomOf).includes(table), `the same table, joined again: ${table} in ${tab.sockets.join(' ')}`);
    const token = await tokenOf(tab.page);
    for (const url of tab.requests) {
      assert.ok(!url.includes(token), `the player's token in ${url}`);
      assert.doesNotMatch(url, /[?&](_authToken|reconnectionToken)=/, url);
    }
    assert.deepEqual(tab.violations, []);
  });

  it('tells a watcher in words when the process holding the watched table dies', async () => {
    // The first test's tabs: players 0..2, then spectators 0..2, spectator 2 watching player 0.
    const watcher = tabs[5]!;
    const tables = (await (await fetch(`${origins[0]}/tables`)).json()) as { roomId: string; pseudonym: string }[];
    const table = tables.find((t) => t.pseudonym === maskPseudonym(PLAYERS[0]!))!;
    const socket = tabs[0]!.sockets.find((url) => roomOf(url) === table.roomId)!;
    const host = cluster.processes.find((p) => originOf(socket) === `127.0.0.1:${p.port}`)!;
    host.child.kill('SIGKILL');
    const told = watcher.page.locator('.table.watch [data-testid=player-state][data-state=lost]');
    await told.waitFor({ timeout: 30_000 });
    assert.equal(await told.textContent(), 'La table ne répond plus (son serveur s’est arrêté)\u202f: le direct est terminé.');
  });
});
