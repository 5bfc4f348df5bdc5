import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { formatEuros } from '../../src/money';
import type { RunningServer } from '../../src/server/app';
import { freePort } from '../../tools/redis-server';
import { ReferenceOperator } from '../../tools/reference-operator';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { assertAccessible, buy, newPlayer, PHONE, revealThroughUI, WAIT } from './ui';

/**
 * Issue 44, done when: at phone size, the reference operator's lobby launches the game, the
 * player plays until a win, the win is credited in the operator's ledger, and « Retour au lobby »
 * leads back to the lobby, which shows it; no request after the first hop into the game server
 * carries the launch code or a token in its URL.
 */

const SECRET = 'operator-secret-of-the-browser-test-32+';
const GAME = 'noel-de-la-chance';
const STAKE = 50;
/** At about one win in five, this many purchases all losing is a one-in-a-thousand run. */
const MOST_PURCHASES = 30;

let server: RunningServer;
let operator: ReferenceOperator;
let browser: Browser;
let dir: string;

const creditsOf = async (player: string) => (await operator.ledger()).filter((l) => l.player === player && l.kind === 'credit');

/** Buys and reveals until the operator's ledger holds a credit for the player. */
async function playUntilAWin(page: Page, player: string): Promise<void> {
  for (let i = 0; i < MOST_PURCHASES; i++) {
    await buy(page, GAME, STAKE);
    await revealThroughUI(page, GAME);
    const outcome = await page.getByTestId('outcome').innerText();
    if (/Gagné/.test(outcome)) {
      // Credited to the operator's wallet by the server's outbox: soon, not at once.
      for (let wait = 0; wait < 100 && (await creditsOf(player)).length === 0; wait++) await new Promise((r) => setTimeout(r, 100));
      return;
    }
  }
  assert.fail(`no win in ${MOST_PURCHASES} purchases`);
}

describe('the operator launches the game, the player wins, the operator pays', function () {
  this.timeout(300_000);

  before(async () => {
    buildWebIfStale();
    dir = mkdtempSync(join(tmpdir(), 'operator-launch-'));
    const port = await freePort();
    operator = await ReferenceOperator.start({ ledger: join(dir, 'ledger.ndjson'), secret: SECRET, gameServer: `http://127.0.0.1:${port}` });
    server = await startTestServer({
      PORT: String(port),
      WALLET_MODE: 'seamless',
      WALLET_URL: operator.walletUrl,
      OPERATOR_SECRET: SECRET,
      JWT_SECRET: 'operator-launch-jwt-secret-of-32-chars',
      OPERATOR_ORIGINS: operator.url,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await operator?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('launch → play → win credited in the operator’s ledger → back to the lobby', async () => {
    const player = 'lobby-player-1';
    // The operator holds the player's weekly limit: given at launch, it is a limit set.
    assert.equal((await operator.admin('POST', '/admin/players', { player, protection: { limits: { stakeWeek: 100_000 } } })).status, 200);
    const { context, page } = await newPlayer(browser, PHONE);
    try {
      const requests: Request[] = [];
      page.on('request', (request) => requests.push(request));
      await page.goto(`${operator.url}/lobby?player=${player}`);
      await page.locator(`form:has(input[name="game"][value="${GAME}"]) button`).click();

      const back = page.getByRole('banner').getByRole('link', { name: 'Retour au lobby' });
      await back.waitFor(WAIT);
      assert.equal(await page.getByLabel('Pseudonyme').count(), 0, 'no pseudonym form');
      await page.getByTestId('balance').waitFor(WAIT);
      await assertAccessible(page, 'the launched game');

      await playUntilAWin(page, player);
      const credits = await creditsOf(player);
      assert.ok(credits.length >= 1, 'the win is credited in the operator’s ledger');
      assert.ok(credits.every((c) => c.amount > 0 && c.game === GAME), JSON.stringify(credits));

      const firstHop = requests.findIndex((r) => r.url().includes('/launch/'));
      assert.ok(firstHop >= 0, 'the launch URL was opened');
      const code = requests[firstHop]!.url().split('/launch/')[1]!;
      for (const later of requests.slice(firstHop + 1).map((r) => r.url())) {
        assert.ok(!later.includes(code), `the code in ${later}`);
        assert.ok(!/eyJ[\w-]+\.[\w-]+\./.test(later) && !later.includes('_authToken'), `a token in ${later}`);
      }

      await back.click();
      await page.waitForURL(`${operator.url}/lobby?player=${player}`, WAIT);
      assert.match(await page.getByTestId('ledger').innerText(), /Gain/);
      const shown = await page.getByTestId('balance').innerText();
      const { body } = await operator.call('balance', { player, currency: 'EUR' });
      assert.equal(shown, `${formatEuros(body['balance'] as number)} €`, 'the lobby shows the operator’s balance');
    } finally {
      await context.close();
    }
  });
});
