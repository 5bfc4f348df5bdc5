import { strict as assert } from 'node:assert';
import type { Browser, Page } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import { MemoryStore } from '../../src/dealer/memory/store';
import { maskPseudonym } from '../../src/feed/win-feed';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { buy, chooseLamp, DESKTOP, GAMES, moreEvents, mouse, newPlayer, openGame, PHONE, screenshotPath, shownEvents, signIn, signInByPseudonym, uncoverCells, WAIT } from './ui';

/**
 * The README's screenshots: each game on a laptop and on a phone, before buying, mid-reveal and
 * on a win. The server prints its blocks from a fixed seed and the players play the same units
 * in the same order, so a run draws the same screens as the last one (Chromium's gradients may
 * differ by a few pixels). They go to test-output/screenshots/, and to docs/screenshots/ with
 * `npm run screenshots` (`screenshotPath`).
 */

const SEED = new Uint8Array(32).fill(27);
const STAKE: Record<string, number> = { 'rain-diamonds': 50, '500000-carats': 500, 'noel-de-la-chance': 100, 'mine-d-or': 100, 'mysteres-de-la-lampe': 50 };
const LAMP = { colour: 'or', symbol: 'lune' };

/** Plays part of the reveal: what « mid-reveal » shows of each game. */
async function halfway(page: Page, game: string): Promise<void> {
  const step = async (selector: string) => {
    const before = await shownEvents(page);
    await page.locator(selector).click();
    await moreEvents(page, before);
  };
  switch (game) {
    case 'rain-diamonds':
      await step('.box[aria-label="Case 2"]');
      await step('.box[aria-label="Case 4"]');
      break;
    case '500000-carats':
      await step('.reveal-winning');
      for (const i of [0, 1, 2, 3, 4, 5, 8, 9, 14]) await step(`.scratch[data-index="${i}"]`);
      break;
    case 'mysteres-de-la-lampe':
      await step('.lamp-controls button');
      await step('.lamp-controls button');
      break;
    case 'mine-d-or':
      // Three cells of the main grid scratched, six under silver.
      for (const i of [0, 4, 8]) await page.locator(`.cell-scratch[data-index="${i}"]`).click();
      break;
    // Le Noël de la chance waits for the symbol to be chosen.
  }
}

/** The wins played so far at this game are all in the feed (one line, grouped): it comes a moment after the screen. */
async function feedHas(page: Page, player: string, game: string, wins: number): Promise<void> {
  if (wins === 0) return;
  await page.waitForFunction(([who, g, n]) => [...document.querySelectorAll('[data-testid=feed] li')]
    .some((li) => li.querySelector('.who')?.textContent === who && li.getAttribute('data-game') === g && Number(li.getAttribute('data-count')) === n), [maskPseudonym(player), game, wins] as const, WAIT);
}

/** The winning units the screen shows finished (the lamp's two units count two): each is a win in the feed. */
async function winsShown(page: Page, game: string): Promise<number> {
  if (!(await page.getByTestId('outcome').isVisible())) return 0;
  if (game === 'mysteres-de-la-lampe') return page.locator('.lampe-unit.won').count();
  return Number(await page.getByTestId('outcome').getAttribute('data-prize')) > 0 ? 1 : 0;
}

async function shoot(page: Page, name: string): Promise<void> {
  // The dates and the session's clock change from run to run: hidden from the picture only.
  await page.evaluate(() => {
    document.querySelectorAll<HTMLElement>('time, .session-time').forEach((t) => (t.style.visibility = 'hidden'));
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) node.textContent = node.textContent!.replace(/\d\d\/\d\d\/\d{4} \d\d:\d\d/g, '··/··/···· ··:··');
  });
  await page.screenshot({ path: screenshotPath(name), animations: 'disabled', caret: 'hide' });
}

describe('the screenshots of the README', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ DEMO_BALANCE_CENTS: '100000', FEED_BATCH_MS: '0' }, { stores: { dealer: new MemoryStore({ printSeed: () => SEED }), actions: new MemoryActionLog() } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [size, device, player] of [['desktop', DESKTOP, 'Chloé'], ['phone', PHONE, 'David']] as const) {
    it(`shows player protection on a ${size}: the first limits, « Mes limites » with a raise waiting, the exclusion's confirm step, the reality check`, async () => {
      const { context, page } = await newPlayer(browser, device);
      try {
        await signInByPseudonym(page, player, `http://127.0.0.1:${server.port}`);
        const first = page.getByRole('dialog', { name: 'Vos limites de jeu' });
        await first.waitFor(WAIT);
        await shoot(page, `protection-${size}-1-first-limits`);
        await first.getByLabel(/^Mises sur 24 heures/).fill('20');
        await first.getByLabel(/^Temps de jeu sur 7 jours/).fill('10');
        await first.getByRole('button', { name: 'Confirmer mes limites' }).click();
        await first.waitFor({ ...WAIT, state: 'detached' });
        await openGame(page, 'rain-diamonds');
        await page.getByRole('button', { name: 'Mes limites' }).click();
        const panel = page.getByRole('dialog', { name: 'Mes limites' });
        await panel.getByLabel(/^Mises sur 7 jours/).fill('150');
        await panel.getByRole('button', { name: 'Enregistrer' }).click();
        await panel.getByText('Limites enregistrées.').waitFor(WAIT);
        await panel.locator('h2').focus();
        await shoot(page, `protection-${size}-2-my-limits`);
        await panel.getByRole('button', { name: 'Continuer…' }).click();
        await panel.locator('.confirm-exclusion').scrollIntoViewIfNeeded();
        await shoot(page, `protection-${size}-3-exclusion-confirm`);
        await panel.getByRole('button', { name: 'Annuler' }).click();
        await page.keyboard.press('Escape');
        // The check falls due after REALITY_CHECK_MINUTES of play: its answer is drawn without waiting an hour.
        await page.route('**/protection', async (route) => {
          const answer = (await (await route.fetch()).json()) as ProtectionState;
          await route.fulfill({ json: { ...answer, session: { ...answer.session, playedMs: 3_720_000, staked: 4_250, won: 2_800, net: -1_450, realityCheckDue: true } } });
        });
        await page.reload();
        await page.getByRole('dialog', { name: 'Le point sur votre session' }).waitFor(WAIT);
        await shoot(page, `protection-${size}-4-reality-check`);
      } finally {
        await context.close();
      }
    });
  }

  for (const [size, device, player] of [['desktop', DESKTOP, 'Alice'], ['phone', PHONE, 'Bruno']] as const) {
    it(`shows each game on a ${size}: before, mid-reveal and a win, from a fixed seed`, async () => {
      const { context, page } = await newPlayer(browser, device);
      try {
        await signIn(page, player, `http://127.0.0.1:${server.port}`);
        for (const game of GAMES) {
          let wins = 0;
          await openGame(page, game);
          const stake = STAKE[game]!;
          if (game === 'mysteres-de-la-lampe') await chooseLamp(page, LAMP);
          await page.getByRole('radio', { name: new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: stake % 100 ? 2 : 0 }).format(stake / 100) }).check();
          await page.evaluate(() => window.scrollTo(0, 0));
          await shoot(page, `${game}-${size}-1-before`);
          let won = false;
          for (let unit = 0; unit < 40 && !won; unit++) {
            await buy(page, game, stake, LAMP);
            if (unit === 0) {
              await halfway(page, game);
              // Mine d'or's grid half under silver: its win, if any, is not in the feed before the page says it is uncovered.
              await feedHas(page, player, game, wins + (await winsShown(page, game)));
              await shoot(page, `${game}-${size}-2-mid`);
            }
            if (game === 'noel-de-la-chance') await page.locator('.symbol-choice.sym-star').click();
            else if (await page.getByRole('button', { name: 'AUTO' }).isEnabled()) await page.getByRole('button', { name: 'AUTO' }).click();
            if (game === 'noel-de-la-chance' || game === 'mine-d-or') await uncoverCells(page, mouse(page));
            await page.getByTestId('outcome').waitFor(WAIT);
            wins += await winsShown(page, game);
            // A win worth showing: more than the stakes; Mine d'or's on one grid, so that the picture shows where it came from.
            won = Number(await page.getByTestId('outcome').getAttribute('data-prize')) > stake * (game === 'mysteres-de-la-lampe' ? 2 : 1)
              && (game !== 'mine-d-or' || (await page.locator('.mine-stage').count()) === 1);
          }
          assert.ok(won, `${game}: a win within 40 units`);
          await page.locator('.stage').scrollIntoViewIfNeeded();
          await page.getByTestId('outcome').scrollIntoViewIfNeeded();
          await feedHas(page, player, game, wins);
          // The amount counted up to its end (while it counts, screen readers have it apart).
          await page.waitForFunction(() => !document.querySelector('[data-testid=outcome] .sr-only'), undefined, WAIT);
          await shoot(page, `${game}-${size}-3-win`);
          await page.getByRole('button', { name: '← Retour' }).click();
        }
      } finally {
        await context.close();
      }
    });
  }
});
