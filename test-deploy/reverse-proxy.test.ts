import { strict as assert } from 'node:assert';
import { request } from 'node:https';
import { request as plainRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import { maskPseudonym } from '../src/feed/win-feed';
import { REFUSALS } from '../src/protocol/refusals';
import { Fleet } from '../tools/fleet';
import { Nginx } from '../tools/nginx';
import { freePort } from '../tools/redis-server';
import { launchBrowser } from '../test/web/browser';
import { openTab, type Tab } from '../test/web/tab';
import { buy, moreEvents, openGame, shownEvents, showTab, signIn, WAIT } from '../test/web/ui';

/**
 * The deployment docs/operations.md describes, run: nginx with the repository's
 * deploy/nginx/lottery.conf.template (TLS with a certificate made for the run, HTTP/2), three
 * built server processes (what `npm start` runs) each behind its path prefix, one Redis, and
 * Chromium over https and wss. `npm run test:proxy`; needs nginx and its brotli module
 * (`apt-get install nginx libnginx-mod-http-brotli-filter`), as .ci/run installs them.
 */

/** The dev login's limit per address and process, low enough to be reached here. */
const DEV_LOGINS_PER_PROCESS = 2;
const PROCESSES = 3;

const ENV = {
  JWT_SECRET: 'reverse-proxy-secret-of-at-least-thirty-two-chars',
  DEV_LOGIN: 'true',
  DEV_LOGIN_PER_MINUTE: String(DEV_LOGINS_PER_PROCESS),
  TRUST_PROXY: '1',
  EMISSION_BLOCKS: '2',
  REDIS_PREFIX: 'proxy',
  FEED_BATCH_MS: '0',
  LOG_LEVEL: 'warn',
  OPERATOR_TOKEN: 'reverse-proxy-operator-token',
};

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

interface Ask {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The loopback address the request leaves from: another client, as nginx and the server see it. */
  readonly from?: string;
}

/** Errors' shape, as the server and the proxy answer them. */
const codeOf = (answer: Answer): string | undefined => (JSON.parse(answer.body.toString()) as { error?: { code?: string } }).error?.code;

/** A code of the protocol's table, which the page has a sentence for. */
const tabled = (code: string | undefined): boolean => code !== undefined && Object.hasOwn(REFUSALS, code);

describe('the deployment behind nginx (deploy/nginx/lottery.conf.template)', function () {
  this.timeout(180_000);
  let fleet: Fleet;
  let nginx: Nginx;
  let browser: Browser;
  let httpPort: number;
  const tabs: Tab[] = [];

  /** One HTTPS request to nginx (HTTP/1.1), its certificate trusted. */
  function ask(path: string, options: Ask = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(`${nginx.origin}${path}`, {
        method: options.method ?? 'GET',
        headers: { ...(options.body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers },
        ca: nginx.certificate,
        ...(options.from ? { localAddress: options.from } : {}),
        agent: false,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(options.body);
    });
  }

  const devLogin = (from: string, headers: Record<string, string> = {}) =>
    ask('/auth/dev-login', { method: 'POST', body: JSON.stringify({ name: 'Passant' }), from, headers });

  before(async function () {
    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
    const httpsPort = await freePort();
    httpPort = await freePort();
    fleet = await Fleet.start({
      processes: PROCESSES, ports, redis: {}, env: ENV,
      publicAddress: (index) => `127.0.0.1:${httpsPort}/node-${index + 1}`,
    });
    nginx = await Nginx.start({ httpsPort, httpPort, processes: [`127.0.0.1:${ports[0]}`, `127.0.0.1:${ports[1]}`, `127.0.0.1:${ports[2]}`] });
    // The test's certificate trusted by its key alone: every other check of TLS stays on.
    browser = await launchBrowser([`--ignore-certificate-errors-spki-list=${nginx.spkiHash}`]);
  });

  after(async function () {
    this.timeout(60_000);
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await nginx?.stop();
    await fleet?.stop();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed' && nginx) console.log(`nginx's error log:\n${nginx.errors()}`);
  });

  it('serves the page over HTTP/2 with brotli, and plays and watches a table over wss, each socket on its room’s process, nothing blocked by the CSP', async () => {
    const player = await openTab(browser, nginx.origin);
    tabs.push(player);
    const scripts: Response[] = [];
    player.page.on('response', (response) => {
      if (/\/assets\/.*\.js$/.test(response.url())) scripts.push(response);
    });
    const page = await player.page.goto(`${nginx.origin}/?pace=0`);
    assert.equal(await page!.headerValue('content-encoding'), 'br', 'the page itself');
    assert.equal(await player.page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol), 'h2');
    await player.page.waitForLoadState('load');
    assert.ok(scripts.length > 0, 'the page loaded its script');
    for (const script of scripts) assert.equal(await script.headerValue('content-encoding'), 'br', script.url());

    await signIn(player.page, 'Joueur', nginx.origin);
    await openGame(player.page, 'rain-diamonds');
    await buy(player.page, 'rain-diamonds', 50);
    const shown = await shownEvents(player.page);
    await player.page.locator('.box[aria-label="Case 1"]').click();
    await moreEvents(player.page, shown);
    await showTab(player.page, 'Spectateurs');
    await player.page.getByRole('button', { name: 'Ouvrir ma table aux spectateurs' }).click();
    await player.page.locator('.watchers-line button[aria-pressed=true]').waitFor(WAIT);

    const watcher = await openTab(browser, nginx.origin);
    tabs.push(watcher);
    await signIn(watcher.page, 'Spectateur', nginx.origin);
    // « Tables ouvertes » shows pseudonyms masked as the feed does.
    await watcher.page.getByRole('button', { name: `Regarder ${maskPseudonym('Joueur')}` }).click();
    await watcher.page.locator('.table.watch .connection[data-state=connected]').waitFor(WAIT);
    const watched = watcher.page.locator('.table.watch .stage[data-events]');
    await watched.waitFor(WAIT);
    const seen = Number(await watched.getAttribute('data-events'));
    await player.page.locator('.box[aria-label="Case 2"]').click();
    await watcher.page.waitForFunction((before) => Number(document.querySelector('.table.watch .stage[data-events]')?.getAttribute('data-events')) > before, seen, WAIT);

    for (const tab of [player, watcher]) {
      await tab.page.locator('.feed .connection[data-state=connected]').waitFor(WAIT);
      assert.deepEqual(tab.violations, [], 'nothing blocked');
      for (const socket of tab.sockets) assert.match(socket, new RegExp(`^wss://127\\.0\\.0\\.1:${new URL(nginx.origin).port}/node-[1-3]/`), 'through the proxy, to one process');
    }
    assert.ok(player.sockets.length >= 2 && watcher.sockets.length >= 2, 'a table and the feed each');
    // Closed, so that nothing else shares the proxy's round robin with the next test's requests.
    for (const tab of tabs.splice(0)) await tab.context.close();
  });

  it('tells each process the client’s address, never one the client wrote (X-Forwarded-For, TRUST_PROXY=1)', async () => {
    // 127.0.0.3 signs in until every process refuses it (its own limit per address), each time
    // claiming another address: a process that believed the claim would never refuse.
    const answers: Answer[] = [];
    for (let i = 0; i < (DEV_LOGINS_PER_PROCESS + 1) * PROCESSES; i++) {
      answers.push(await devLogin('127.0.0.3', { 'x-forwarded-for': `198.51.100.${i + 1}` }));
    }
    assert.deepEqual(answers.map((a) => a.status), [...Array<number>(DEV_LOGINS_PER_PROCESS * PROCESSES).fill(200), ...Array<number>(PROCESSES).fill(429)]);
    for (const refused of answers.slice(-PROCESSES)) assert.equal(codeOf(refused), 'auth/rate_limited', 'each process’s own refusal');
    // Another address is its own: were the proxy's address taken for the client's, it would be refused too.
    for (let i = 0; i < PROCESSES; i++) assert.equal((await devLogin('127.0.0.4')).status, 200);
  });

  it('answers 429 in the server’s error shape past the rate limit of each open route, per address', async () => {
    const routes: readonly [string, Ask][] = [
      ['/auth/dev-login', { method: 'POST', body: JSON.stringify({ name: 'Passant' }) }],
      ['/fairness/blocks', {}],
      ['/games', {}],
      ['/prizes-left', {}],
      ['/tables', {}],
      // The same routes as the server also reads them (paths are not case-sensitive there, a
      // trailing slash is allowed): no way round the limits.
      ['/GAMES/', {}],
      ['/Fairness/blocks', {}],
      ['/Auth/Dev-Login/', { method: 'POST', body: JSON.stringify({ name: 'Passant' }) }],
    ];
    const byProxy = (answer: Answer) => answer.status === 429 && codeOf(answer) === 'request/rate_limited';
    for (const [i, [path, options]] of routes.entries()) {
      const from = `127.0.0.${10 + i}`;
      const answers = await Promise.all(Array.from({ length: 30 }, () => ask(path, { ...options, from })));
      const limited = answers.filter(byProxy);
      // The first 1 + burst pass (20 on the read routes, 10 on the dev login, whose passing ones
      // the processes' own limit may refuse in turn); the rest are the proxy's.
      assert.ok(limited.length >= 5 && limited.length < answers.length, `${path}: ${answers.map((a) => a.status).join(' ')}`);
      for (const answer of limited) assert.equal(answer.headers['retry-after'], '1', path);
      assert.ok(tabled(codeOf(limited[0]!)), 'a code of the table: the page says it in the player’s words');
      assert.ok(answers.filter((a) => !byProxy(a)).every((a) => a.status === 200 || codeOf(a) === 'auth/rate_limited'), path);
      assert.equal((await ask(path, { ...options, from: '127.0.0.99' })).status, 200, `${path}: another address is not limited`);
    }
  });

  it('compresses JSON answers with brotli or gzip, as the client asks', async () => {
    for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
      const answer = await ask('/games', { headers: { 'accept-encoding': encoding }, from: '127.0.0.20' });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], encoding);
      assert.ok(Array.isArray(JSON.parse(decode(answer.body).toString())), 'the games, whole');
    }
  });

  it('sends plain HTTP to HTTPS, serves the process prefixes to WebSockets only, and keeps /metrics off the internet', async () => {
    const redirect = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      plainRequest(`http://127.0.0.1:${httpPort}/games`, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, location: res.headers.location });
      }).on('error', reject).end();
    });
    assert.equal(redirect.status, 301);
    assert.match(redirect.location ?? '', /^https:\/\/127\.0\.0\.1\/games$/);
    const prefixed = await ask('/node-1/games', { from: '127.0.0.21' });
    assert.equal(prefixed.status, 404);
    assert.equal(codeOf(prefixed), 'request/not_found');
    assert.ok(tabled(codeOf(prefixed)));
    // Each process would answer the operator's scraper (200): nginx answers for them all.
    for (const path of ['/metrics', '/Metrics/']) {
      assert.equal((await ask(path, { from: '127.0.0.21', headers: { authorization: `Bearer ${ENV.OPERATOR_TOKEN}` } })).status, 404, path);
    }
  });
});
