import { strict as assert } from 'node:assert';
import type { Browser, Request } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { signRequest, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { LaunchReply, LaunchRequest } from '../../src/protocol/operator-api';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { assertAccessible, assertNoSidewaysScroll, euroLabel, newPlayer, PHONE, WAIT } from './ui';

/**
 * An operator's launch in the browser, at phone size (issue 44): the launch URL opens the page
 * signed in for the operator's player, with no pseudonym form and « Retour au lobby » in its
 * header; after the first hop no request carries the launch code or a token in its URL; the
 * link cannot be used twice.
 */

const SECRET = 'operator-secret-of-at-least-32-characters';
const LOBBY = 'http://localhost:9/lobby';

let server: RunningServer;
let browser: Browser;
let base: string;
let launches = 0;

async function launchUrl(request: Partial<LaunchRequest> = {}): Promise<string> {
  const body = JSON.stringify({ player: `web-player-${++launches}`, currency: 'EUR', language: 'fr', returnUrl: LOBBY, game: 'mine-d-or', ...request } satisfies LaunchRequest);
  const res = await fetch(`${base}/operator/launch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signRequest(SECRET, { method: 'POST', path: '/operator/launch', body }, Date.now()) },
    body,
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as LaunchReply).url;
}

describe('an operator launches the page', function () {
  this.timeout(120_000);

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ OPERATOR_SECRET: SECRET, JWT_SECRET: 'launch-page-secret-of-at-least-32-chars', DEV_LOGIN: 'false' });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens signed in, with the way back to the lobby and no token in any URL after the first hop', async () => {
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      const requests: Request[] = [];
      page.on('request', (request) => requests.push(request));
      const url = await launchUrl();
      const code = url.split('/launch/')[1]!;
      await page.goto(url);
      const back = page.getByRole('banner').getByRole('link', { name: 'Retour au lobby' });
      await back.waitFor(WAIT);
      assert.equal(await back.getAttribute('href'), LOBBY);
      // Signed in: the game's table, its balance, no sign-in form, no token field, no sign-out.
      await page.getByTestId('balance').waitFor(WAIT);
      await page.getByRole('dialog', { name: 'Vos limites de jeu' }).waitFor(WAIT);
      assert.equal(await page.getByLabel('Pseudonyme').count(), 0, 'no pseudonym form');
      assert.equal(await page.getByLabel('Jeton de l’opérateur').count(), 0, 'no operator token field');
      assert.equal(await page.getByRole('button', { name: 'Se déconnecter' }).count(), 0, 'no sign-out');
      assert.equal(new URL(page.url()).pathname, '/');
      assert.ok(!page.url().includes(code), 'the address no longer holds the code');
      await assertAccessible(page, 'the launched page');
      await assertNoSidewaysScroll(page, 'the launched page');

      const token = await page.evaluate(async () => Object.keys(sessionStorage).map((k) => sessionStorage.getItem(k)).join(' '));
      assert.ok(!/eyJ/.test(token), 'no token kept in the tab’s storage');
      const [first, ...after] = requests.map((r) => r.url());
      assert.equal(first, url, 'the first hop is the launch URL');
      for (const later of after) {
        assert.ok(!later.includes(code), `the code in ${later}`);
        assert.ok(!/eyJ[\w-]+\.[\w-]+\./.test(later) && !later.includes('_authToken'), `a token in ${later}`);
      }
      assert.ok(after.some((u) => u.endsWith('/auth/launch-session')), 'the handle was traded');
      assert.ok(requests.some((r) => r.url().includes('/matchmake/') && /^Bearer eyJ/.test(r.headers()['authorization'] ?? '')), 'the table joined with the token in a header');

      // The way back leads to the operator's lobby.
      const leaving = page.waitForRequest((r) => r.url() === LOBBY && r.isNavigationRequest());
      await page.getByRole('dialog', { name: 'Vos limites de jeu' }).getByRole('button', { name: 'Plus tard' }).click();
      await back.click();
      await leaving;
    } finally {
      await context.close();
    }
  });

  it('returns to the operator after « Arrêter de jouer » at the reality check: the session summed up, then « Retour au lobby »', async () => {
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      // An hour of play is not waited for: the server's answer says the check is due.
      await page.route('**/protection', async (route) => {
        const answer = (await (await route.fetch()).json()) as ProtectionState;
        await route.fulfill({ json: { ...answer, session: { ...answer.session, realityCheckDue: true } } });
      });
      await page.goto(await launchUrl());
      const check = page.getByRole('dialog', { name: 'Le point sur votre session' });
      await check.waitFor(WAIT);
      await check.getByRole('button', { name: 'Arrêter de jouer' }).click();
      const summary = page.getByRole('dialog', { name: 'Votre session' });
      await summary.waitFor(WAIT);
      assert.equal(await summary.getByTestId('summary-net').innerText(), euroLabel(0));
      await assertAccessible(page, 'the session summary of a launched page');
      await summary.getByRole('button', { name: 'Fermer' }).click();
      await page.getByRole('heading', { name: 'Session terminée' }).waitFor(WAIT);
      await assertAccessible(page, 'the launched page once play is stopped');
      const leaving = page.waitForRequest((r) => r.url() === LOBBY && r.isNavigationRequest());
      await page.getByRole('main').getByRole('link', { name: 'Retour au lobby' }).click();
      await leaving;
    } finally {
      await context.close();
    }
  });

  it('offers no pseudonym form where the dev login is off: players come from the operator', async () => {
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      await page.goto(`${base}/`);
      await page.getByText('Ouvrez les jeux depuis le site de votre opérateur').waitFor(WAIT);
      assert.equal(await page.getByLabel('Pseudonyme').count(), 0);
    } finally {
      await context.close();
    }
  });

  it('shows a launch link used before as used, with no session', async () => {
    const url = await launchUrl();
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      await page.goto(url);
      await page.getByRole('banner').getByRole('link', { name: 'Retour au lobby' }).waitFor(WAIT);
      const again = await page.goto(url);
      assert.equal(again?.status(), 410);
      await page.getByRole('heading', { name: /déjà servi ou a expiré/ }).waitFor(WAIT);
      assert.equal(await page.getByRole('link', { name: 'Retour au lobby' }).getAttribute('href'), LOBBY);
      await assertAccessible(page, 'the used link');
    } finally {
      await context.close();
    }
  });

  it('ends the session when the operator says: « Session terminée » and the way back', async () => {
    const player = `web-player-end-${++launches}`;
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      await page.goto(await launchUrl({ player }));
      await page.getByTestId('balance').waitFor(WAIT);
      await page.getByRole('dialog', { name: 'Vos limites de jeu' }).getByRole('button', { name: 'Plus tard' }).click();
      await page.getByRole('status').filter({ hasText: 'Connecté' }).first().waitFor(WAIT);
      const body = JSON.stringify({ player });
      const ended = await fetch(`${base}/operator/sessions/end`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signRequest(SECRET, { method: 'POST', path: '/operator/sessions/end', body }, Date.now()) },
        body,
      });
      assert.equal(ended.status, 200);
      await page.getByRole('heading', { name: 'Session terminée' }).waitFor(WAIT);
      assert.equal(await page.getByRole('main').getByRole('link', { name: 'Retour au lobby' }).getAttribute('href'), LOBBY);
      await assertAccessible(page, 'the session over');
    } finally {
      await context.close();
    }
  });
});
