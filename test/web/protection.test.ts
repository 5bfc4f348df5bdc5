import { strict as assert } from 'node:assert';
import { Client } from '@colyseus/sdk';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { buildWebIfStale } from '../../scripts/build-web';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';
import { launchBrowser } from './browser';
import { eventually, reasonOf } from '../rooms/helpers';
import { assertAccessible, assertNoSidewaysScroll, assertTargets, buy, DESKTOP, euroLabel, focusComes, newPlayer, openGame, pageTop, PHONE, screenshotPath, setFirstLimits, shownLines, signIn, signInByPseudonym, tokenOf, WAIT, showTab } from './ui';

/**
 * Player protection on the page (issue 28): the 18+ notice and the legal warning on every
 * screen, the weekly stake limit asked at first sign-in, « Mes limites » (limits, raises
 * waiting, history, self-exclusion), refusals with what is left and until when, « JOUER » off
 * when the server would refuse, the reality check. Each dialog is checked by axe-core.
 */

/** The warning of the arrêté du 29 juillet 2022, as the law writes it: the page shows it unmodified. */
const WARNING = 'Les jeux d\'argent et de hasard peuvent être dangereux : pertes d\'argent, conflits familiaux, addiction… Retrouvez nos conseils sur joueurs-info-service.fr (09 74 75 13 13 - appel non surtaxé)';
/** The smallest phone the page is made for. */
const SMALL_PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 } as const;
const DEMO_PROPOSAL_CENTS = 10_000;
const DEMO_BALANCE_CENTS = 100_000;
const OPERATOR_TOKEN = 'operator-token-for-the-protection-tests';

let server: RunningServer;
let browser: Browser;
let base: string;
let names = 0;
const nextName = (prefix: string) => `${prefix}${++names}`;

/** As the page formats a moment (fr-FR, short date and time); the browser runs in this machine's time zone. */
const frenchDateTime = (ms: number) => new Date(ms).toLocaleString('fr-FR', { dateStyle: 'short', timeStyle: 'short' });

async function protectionOf(page: Page): Promise<ProtectionState> {
  const res = await fetch(`${base}/protection`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
  assert.equal(res.status, 200);
  return (await res.json()) as ProtectionState;
}

/** The 18+ notice and the warning, whole and readable, in the flow of the page (over nothing); « Mes limites » once signed in. */
async function assertWarning(page: Page, where: string, signedIn: boolean): Promise<void> {
  const band = page.getByTestId('warning');
  await band.waitFor(WAIT);
  assert.equal(await band.locator('.legal-warning').innerText(), WARNING, `${where}: the warning, verbatim`);
  assert.ok(await band.getByText('Interdit aux moins de 18 ans').isVisible(), `${where}: the 18+ notice`);
  assert.equal(await band.getByRole('button', { name: 'Mes limites' }).count(), signedIn ? 1 : 0, `${where}: « Mes limites » when signed in`);
  const fontPx = await band.locator('.legal-warning').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  assert.ok(fontPx >= 12, `${where}: the warning is ${fontPx} px`);
  assert.equal(await band.evaluate((el) => getComputedStyle(el).position), 'static', `${where}: in the flow, never over the game`);
}

/** A purchase from a second table of the same player (another tab, another device): the page's state is now behind. */
async function buyElsewhere(page: Page, stake: number): Promise<void> {
  const client = new Client(base);
  client.auth.token = await tokenOf(page);
  const room = await client.create('table', { game: 'mine-d-or' });
  room.onMessage('wallet', () => undefined);
  try {
    await room.request('buy', { stake, requestId: `elsewhere_${++names}` });
  } finally {
    await room.leave();
  }
}

describe('the page protects the player', function () {
  this.timeout(120_000);

  before(async () => {
    buildWebIfStale();
    server = await startTestServer({ DEMO_BALANCE_CENTS: String(DEMO_BALANCE_CENTS), OPERATOR_TOKEN, DEMO_STAKE_LIMIT_WEEK_CENTS: String(DEMO_PROPOSAL_CENTS), FEED_BATCH_MS: '0' });
    base = `http://127.0.0.1:${server.port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('asks for the weekly stake limit at first sign-in, prefilled with the demo’s proposal; nothing can be bought before it is set', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signInByPseudonym(page, nextName('First'), base);
      const dialog = page.getByRole('dialog', { name: 'Vos limites de jeu' });
      await dialog.waitFor(WAIT);
      assert.ok(await focusComes(page, '#first-limits-title'), 'the dialog is read from its heading');
      assert.equal(await dialog.getByLabel(/^Mises sur 7 jours/).inputValue(), String(DEMO_PROPOSAL_CENTS / 100), 'the proposal, to confirm');
      assert.equal(await dialog.getByLabel(/^Mises sur 24 heures/).inputValue(), '', 'the daily limit is optional');
      await assertAccessible(page, 'the first limits dialog');
      // Put off: nothing can be bought, and the table says why and how to go on.
      await dialog.getByRole('button', { name: 'Plus tard' }).click();
      await dialog.waitFor({ ...WAIT, state: 'detached' });
      await page.getByRole('button', { name: /^RAIN DIAMONDS/ }).click();
      await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
      assert.ok(await page.locator('.buy-button').isDisabled(), '« JOUER » is off without a limit');
      assert.equal(await page.getByTestId('buy-gate').innerText(), 'Fixez votre limite de mises sur 7 jours pour jouer. Fixer ma limite');
      await page.getByRole('button', { name: 'Fixer ma limite' }).click();
      await dialog.getByLabel(/^Mises sur 7 jours/).fill('20');
      await dialog.getByLabel(/^Mises sur 24 heures/).fill('5,50');
      await dialog.getByLabel(/^Temps de jeu sur 7 jours/).fill('10');
      await dialog.getByRole('button', { name: 'Confirmer mes limites' }).click();
      await dialog.waitFor({ ...WAIT, state: 'detached' });
      await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.buy-button')?.disabled, undefined, WAIT);
      const state = await protectionOf(page);
      assert.equal(state.stakeLimitSet, true);
      assert.deepEqual(state.limits.map((l) => [l.kind, l.amount]), [['stake_week', 2_000], ['stake_day', 550], ['deposit_week', null]]);
    } finally {
      await context.close();
    }
  });

  it('asks the playing time at first sign-in with the stake limit; once it is used up « JOUER » is off and the server refuses, saying when play is possible again', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signInByPseudonym(page, nextName('Time'), base);
      const dialog = page.getByRole('dialog', { name: 'Vos limites de jeu' });
      await dialog.waitFor(WAIT);
      await dialog.getByLabel(/^Temps de jeu sur 24 heures/).fill('15 min');
      await dialog.getByRole('button', { name: 'Confirmer mes limites' }).click();
      const weekly = dialog.getByLabel(/^Temps de jeu sur 7 jours/);
      assert.equal(await weekly.evaluate((el) => (el as HTMLInputElement).validity.valueMissing), true, 'the weekly playing time is asked: the form is not sent without it');
      await weekly.fill('1 h 30');
      await dialog.getByRole('button', { name: 'Confirmer mes limites' }).click();
      await dialog.waitFor({ ...WAIT, state: 'detached' });
      assert.deepEqual((await protectionOf(page)).timeLimits.map((l) => [l.kind, l.amount]), [['time_day', 15 * 60_000], ['time_week', 90 * 60_000]]);
      assert.match((await page.getByTestId('time-left').textContent())!, /Temps de jeu sur 24 heures\u202f: joué 0\s?min, reste 15\s?min/, 'the header: the time used and left under the tightest limit');
      // Played elsewhere (another device): 8 purchases 2 minutes apart, the last 2 minutes ago: 14 minutes counted and the open gap's 2.
      const token = await tokenOf(page);
      const playerId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
      const emission = (await server.services.dealer.emissions.listEmissions()).find((e) => e.game === 'noel-de-la-chance')!;
      const now = Date.now();
      for (let i = 0; i < 8; i++) {
        const bought = await server.services.dealer.sales.purchase({ playerId, requestId: `elsewhere_${names}_${i}`, game: emission.game, stake: emission.stake, now: now - (8 - i) * 2 * 60_000 });
        assert.ok(bought.ok, `purchase ${i} elsewhere`);
      }
      // The page learns it at its next reading of the state (a reload here; else within 30 s).
      await page.reload();
      await openGame(page, 'rain-diamonds');
      await page.waitForFunction(() => document.querySelector<HTMLButtonElement>('.buy-button')?.disabled, undefined, WAIT);
      const state = await protectionOf(page);
      const day = state.timeLimits[0]!;
      assert.equal(day.left, 0);
      assert.equal(await page.getByTestId('buy-gate').innerText(), `Vous avez atteint votre limite de temps de jeu sur 24 heures. Vous pourrez rejouer le ${frenchDateTime(day.nextFreeAt!)}.`);
      assert.match((await page.getByTestId('time-left').textContent())!, new RegExp(`joué ${Math.floor(day.used / 60_000)}\\s?min, reste 0\\s?min`), 'the header: the time used, none left');
      await assert.rejects(buyElsewhere(page, 50), (err: unknown) => reasonOf(err).includes('limit/time_day'));
      await page.getByRole('button', { name: 'Mes limites' }).click();
      const panel = page.getByRole('dialog', { name: 'Mes limites' });
      await panel.waitFor(WAIT);
      assert.equal(await panel.getByTestId('left-time_day').innerText(), '0\u00a0min');
      assert.match(await panel.getByTestId('used-time_week').innerText(), /^1[56]\u00a0min$/, 'the time used, the open gap counted');
      await assertAccessible(page, '« Mes limites » with the playing-time limits');
      await page.screenshot({ path: screenshotPath('protection-time-limit-used-up'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('shows a refused purchase as its sentence with what is left and when it frees; « JOUER » is off while the limit left is below the price', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signInByPseudonym(page, nextName('Limit'), base);
      await setFirstLimits(page, '1');
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      // The page knows 0,50 € is left; another table of the player takes it. The page's own
      // refreshes (after the unit, every 30 s) are answered with what it knew until the refusal is
      // on screen, so that whenever they land the page still believes 0,50 € is left. The page asks
      // again only after it has shown the refusal, so that answer is the server's own. The fake is
      // in place before the unit ends (the page asks when it shows the end: a request sent before
      // the fake, answered late, would tell it the truth), and a request sent before it has its
      // answer before the other table buys.
      const known = JSON.stringify(await protectionOf(page));
      const alert = page.getByRole('alert').filter({ hasText: 'Cette mise dépasserait votre limite de mises sur 7 jours.' });
      const unanswered = new Set<Request>();
      page.on('request', (request) => request.url().endsWith('/protection') && unanswered.add(request));
      page.on('requestfinished', (request) => unanswered.delete(request));
      page.on('requestfailed', (request) => unanswered.delete(request));
      await page.route('**/protection', async (route) => {
        if (route.request().method() !== 'GET' || (await alert.count()) > 0) return route.continue();
        return route.fulfill({ status: 200, contentType: 'application/json', body: known });
      });
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      await eventually(() => unanswered.size, (n) => n === 0, 'the page’s requests for its protection state answered');
      await buyElsewhere(page, 50);
      await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.buy-button')?.disabled, undefined, WAIT);
      await page.locator('.buy-button').click();
      await alert.waitFor(WAIT);
      const { nextFreeAt } = (await protectionOf(page)).limits[0]!;
      assert.ok(nextFreeAt !== null);
      assert.match(await alert.innerText(), new RegExp(`Il vous reste 0\\s€\\. Le prochain centime se libère le ${frenchDateTime(nextFreeAt)}\\.`));
      // The page learnt the state that refused it: « JOUER » off, and why.
      await page.getByTestId('buy-gate').waitFor(WAIT);
      assert.ok(await page.locator('.buy-button').isDisabled());
      assert.match(await page.getByTestId('buy-gate').innerText(), /^Mises sur 7 jours\s: il vous reste 0\s€, moins que ce prix\. Le prochain centime se libère le /);
      await assertAccessible(page, 'a table with its limit reached');
      // The refusal is in the history of « Mes limites ».
      await page.getByRole('button', { name: 'Mes limites' }).click();
      await page.getByRole('dialog', { name: 'Mes limites' }).locator('.changes li', { hasText: 'Achat refusé\u202f: Cette mise dépasserait votre limite de mises sur 7 jours.' }).waitFor(WAIT);
    } finally {
      await context.close();
    }
  });

  it('turns « JOUER » off when the balance is below the price', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signIn(page, nextName('Poor'), base);
      // The operator pays out all but 0,50 €.
      const token = await tokenOf(page);
      const playerId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
      const withdrawal = await fetch(`${base}/admin/wallets/${encodeURIComponent(playerId)}/withdraw`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
        body: JSON.stringify({ amount: DEMO_BALANCE_CENTS - 50, requestId: 'pay_out' }),
      });
      assert.equal(withdrawal.status, 200);
      await openGame(page, 'mine-d-or');
      await page.getByRole('radio', { name: '1 €' }).check();
      assert.ok(await page.locator('.buy-button').isDisabled(), '1 € with 0,50 € on the balance');
      assert.equal(await page.getByTestId('buy-gate').innerText(), 'Votre solde ne suffit pas pour ce prix.');
      await page.getByRole('radio', { name: '0,50 €' }).check();
      assert.ok(await page.locator('.buy-button').isEnabled(), '0,50 € with 0,50 €');
    } finally {
      await context.close();
    }
  });

  it('« Mes limites » shows a raise waiting 48 hours with its date, a lowering at once, and the history of changes', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signInByPseudonym(page, nextName('Panel'), base);
      await setFirstLimits(page, '50');
      await page.getByRole('button', { name: 'Mes limites' }).click();
      const panel = page.getByRole('dialog', { name: 'Mes limites' });
      await panel.waitFor(WAIT);
      await panel.getByLabel(/^Mises sur 7 jours/).fill('80');
      await panel.getByLabel(/^Mises sur 24 heures/).fill('10');
      await panel.getByRole('button', { name: 'Enregistrer' }).click();
      await panel.getByText('Limites enregistrées.').waitFor(WAIT);
      const week = (await protectionOf(page)).limits[0]!;
      assert.equal(week.amount, 5_000, 'a raise waits');
      assert.equal(week.pending?.amount, 8_000);
      assert.equal(await panel.getByTestId('pending-stake_week').innerText(), `Passera à 80\u00a0€ le ${frenchDateTime(week.pending!.effectiveAt)} (hausse en attente de 48\u00a0h).`);
      assert.equal(await panel.locator('[data-kind=stake_week] .limit-amount').innerText(), '50\u00a0€', 'the limit in force meanwhile');
      assert.equal(await panel.locator('[data-kind=stake_day] .limit-amount').innerText(), '10\u00a0€', 'a new limit applies at once');
      assert.equal(await panel.getByTestId('left-stake_week').innerText(), '50\u00a0€');
      // A card without a limit says what was deposited or played, not « Utilisé » of nothing.
      assert.equal(await panel.locator('[data-kind=deposit_week] .limit-amount').innerText(), 'aucune');
      assert.equal(await panel.locator('[data-kind=deposit_week] dt').first().innerText(), 'Déposé');
      assert.equal(await panel.locator('[data-kind=deposit_week] dt', { hasText: 'Prochain centime libéré' }).count(), 0, 'no cent to free without a limit');
      assert.equal(await panel.locator('[data-kind=time_day] dt').first().innerText(), 'Joué');
      assert.equal(await panel.locator('[data-kind=stake_week] dt').first().innerText(), 'Utilisé');
      assert.ok((await panel.locator('.changes li').count()) >= 3, 'the history: the first limit, the raise, the daily limit');
      // The reality check's interval: the player's, within the server's hour.
      await panel.getByLabel('Faire le point sur ma session toutes les').selectOption({ label: '30\u00a0min' });
      await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('#reality-interval')?.value === '1800000', undefined, WAIT);
      assert.equal((await protectionOf(page)).session.realityCheckChosenMs, 30 * 60_000);
      await assertAccessible(page, '« Mes limites »');
      // Escape closes it, and the focus goes back where it was.
      await page.keyboard.press('Escape');
      await panel.waitFor({ ...WAIT, state: 'detached' });
      assert.ok(await focusComes(page, 'button.my-limits'), 'the focus back on « Mes limites »');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Mes limites');
    } finally {
      await context.close();
    }
  });

  it('self-exclusion asks to confirm that it cannot be undone, then takes effect at once: « JOUER » off, purchases refused', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signIn(page, nextName('Out'), base);
      await openGame(page, 'rain-diamonds');
      await page.getByRole('button', { name: 'Mes limites' }).click();
      const panel = page.getByRole('dialog', { name: 'Mes limites' });
      await panel.getByRole('radio', { name: '7 jours' }).check();
      await panel.getByRole('button', { name: 'Continuer…' }).click();
      const confirm = panel.getByRole('group', { name: 'Vous exclure pendant 7 jours\u202f?' });
      await confirm.getByText('Cette exclusion commence tout de suite et ne pourra être ni annulée ni raccourcie avant sa fin.').waitFor(WAIT);
      await assertAccessible(page, 'the exclusion’s confirm step');
      assert.ok(await focusComes(page, '.confirm-exclusion button:not(.danger)'), 'the confirm step puts the focus on the safe choice, not on « Oui, m’exclure »');
      await confirm.getByRole('button', { name: 'Oui, m’exclure' }).click();
      // The page shows the exclusion once the server has answered; the record is read after.
      await panel.getByTestId('excluded-until').waitFor(WAIT);
      const { excludedUntil } = await protectionOf(page);
      assert.ok(excludedUntil !== null && excludedUntil > Date.now() + 6 * 86_400_000);
      const until = `jusqu’au ${frenchDateTime(excludedUntil)}`;
      assert.match(await panel.getByTestId('excluded-until').innerText(), new RegExp(until));
      assert.equal(await panel.getByRole('radio', { name: '7 jours' }).count(), 0, 'no exclusion offered while one runs');
      await panel.getByRole('button', { name: 'Fermer' }).click();
      assert.ok(await page.locator('.buy-button').isDisabled(), '« JOUER » off at once');
      assert.match(await page.getByTestId('buy-gate').innerText(), new RegExp(`exclu du jeu ${until}`));
      // The server refuses it too, from any table of the player.
      await assert.rejects(buyElsewhere(page, 50), (err: unknown) => reasonOf(err).includes('protection/excluded'));
    } finally {
      await context.close();
    }
  });

  it('shows the reality check when it falls due: time played and net result; « Continuer » acknowledges it', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signIn(page, nextName('Clock'), base);
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      const played = await protectionOf(page);
      const net = played.session.net;
      // An hour of play is not waited for: the server's answer says the check is due, as it will after REALITY_CHECK_MINUTES.
      await page.route('**/protection', async (route) => {
        const answer = (await (await route.fetch()).json()) as ProtectionState;
        await route.fulfill({ json: { ...answer, session: { ...answer.session, playedMs: 3_720_000, realityCheckDue: true } } });
      });
      const ack = page.waitForRequest((r) => r.url().endsWith('/protection/reality-check') && r.method() === 'POST');
      await page.reload();
      const dialog = page.getByRole('dialog', { name: 'Le point sur votre session' });
      await dialog.waitFor(WAIT);
      assert.equal(await dialog.getByTestId('reality-time').innerText(), '1\u00a0h\u00a002\u00a0min');
      assert.equal(await dialog.getByTestId('reality-net').innerText(), net > 0 ? `+${euroLabel(net)}` : net < 0 ? `\u2212${euroLabel(-net)}` : euroLabel(0), 'the net result');
      assert.match(await page.getByTestId('session').innerText(), /1\s?h\s?02\s?min/, 'the header says the session too');
      await assertAccessible(page, 'the reality check');
      await page.unroute('**/protection');
      await dialog.getByRole('button', { name: 'Continuer' }).click();
      await ack;
      await dialog.waitFor({ ...WAIT, state: 'detached' });
      await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.buy-button')?.disabled, undefined, WAIT);
    } finally {
      await context.close();
    }
  });

  /** A player who played a unit, whose page is told the reality check is due (an hour is not waited for), from then on. */
  async function realityCheckDue(name: string): Promise<{ context: BrowserContext; page: Page; dialog: Locator; played: ProtectionState['session'] }> {
    const { context, page } = await newPlayer(browser, DESKTOP);
    await signIn(page, nextName(name), base);
    await openGame(page, 'rain-diamonds');
    await buy(page, 'rain-diamonds', 50);
    await page.getByRole('button', { name: 'AUTO' }).click();
    await page.getByTestId('outcome').waitFor(WAIT);
    const played = (await protectionOf(page)).session;
    await page.route('**/protection', async (route) => {
      const answer = (await (await route.fetch()).json()) as ProtectionState;
      await route.fulfill({ json: { ...answer, session: { ...answer.session, realityCheckDue: true } } });
    });
    await page.reload();
    const dialog = page.getByRole('dialog', { name: 'Le point sur votre session' });
    await dialog.waitFor(WAIT);
    return { context, page, dialog, played };
  }

  it('offers a way out at the reality check: the help line, « Mes limites », and « Arrêter de jouer », which sums up the session and signs out', async () => {
    const { context, page, dialog, played } = await realityCheckDue('Out');
    try {
      const help = dialog.getByTestId('help-line');
      assert.equal(await help.getByRole('link', { name: 'joueurs-info-service.fr' }).getAttribute('href'), 'https://www.joueurs-info-service.fr');
      assert.equal(await help.getByRole('link', { name: /^09.74.75.13.13/ }).getAttribute('href'), 'tel:+33974751313');
      await assertAccessible(page, 'the reality check and its ways out');
      await page.screenshot({ path: screenshotPath('protection-reality-check-ways-out') });
      // « Mes limites »: the panel, in its place.
      await dialog.getByRole('button', { name: 'Mes limites' }).click();
      const panel = page.getByRole('dialog', { name: 'Mes limites' });
      await panel.waitFor(WAIT);
      await panel.getByRole('button', { name: 'Fermer' }).click();
      await page.getByRole('button', { name: 'Voir le point' }).click();
      // « Arrêter de jouer »: the tables left, the session summed up, signed out.
      await dialog.getByRole('button', { name: 'Arrêter de jouer' }).click();
      const summary = page.getByRole('dialog', { name: 'Votre session' });
      await summary.waitFor(WAIT);
      assert.equal(await summary.getByTestId('summary-staked').innerText(), euroLabel(played.staked));
      assert.equal(await summary.getByTestId('summary-won').innerText(), euroLabel(played.won));
      assert.equal(await summary.getByTestId('summary-net').innerText(), played.net > 0 ? `+${euroLabel(played.net)}` : played.net < 0 ? `\u2212${euroLabel(-played.net)}` : euroLabel(0));
      assert.match(await summary.getByTestId('summary-time').innerText(), /^\d+\u00a0min$/);
      assert.ok(await focusComes(page, '#summary-title'), 'the summary is read from its heading');
      await assertAccessible(page, 'the session summary');
      await page.screenshot({ path: screenshotPath('protection-session-summary') });
      await summary.getByRole('button', { name: 'Fermer' }).click();
      await page.getByLabel('Pseudonyme').waitFor(WAIT);
      assert.equal(await page.locator('.table').count(), 0, 'no table left open');
    } finally {
      await context.close();
    }
  });

  it('sums up the session when the player signs out', async () => {
    const { context, page } = await newPlayer(browser, DESKTOP);
    try {
      await signIn(page, nextName('Bye'), base);
      await openGame(page, 'rain-diamonds');
      await buy(page, 'rain-diamonds', 50);
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      const played = (await protectionOf(page)).session;
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      const summary = page.getByRole('dialog', { name: 'Votre session' });
      await summary.waitFor(WAIT);
      assert.equal(await summary.getByTestId('summary-staked').innerText(), euroLabel(50));
      assert.equal(await summary.getByTestId('summary-won').innerText(), euroLabel(played.won));
    } finally {
      await context.close();
    }
  });

  for (const [size, device] of [['360 × 740', SMALL_PHONE], ['390 × 844', PHONE]] as const) {
    it(`shows the playing time used and left in the header at ${size}, the header keeping its height and the board its place`, async () => {
      const { context, page } = await newPlayer(browser, device);
      try {
        await signIn(page, nextName('Header'), base);
        await openGame(page, 'rain-diamonds');
        // A stake held: the balance's second line, the header's fullest.
        await buy(page, 'rain-diamonds', 50);
        const limit = page.getByTestId('time-left');
        assert.deepEqual(await shownLines(page, '[data-testid=time-left]'), ['joué 0 min', 'reste 100 h 00'], 'the time used over the time left');
        assert.match((await limit.textContent())!, /^ · Temps de jeu sur 7 jours\u202f: joué 0\u00a0min, reste 100\u00a0h\u00a000$/, 'screen readers hear which limit, and both');
        assert.deepEqual(await shownLines(page, '.session-now'), ['0 min', '0 €'], 'the session’s time over its net, beside it');
        await page.screenshot({ path: screenshotPath(`protection-header-time-${device.viewport.width}`) });
        const header = (await page.locator('header.top').boundingBox())!;
        const board = await pageTop(page, '.stage');
        await assertNoSidewaysScroll(page, `the header at ${size}`);
        await assertAccessible(page, `the header at ${size}`);
        // The same page without a playing-time limit to show: the header and the board where they were.
        await page.route('**/protection', async (route) => {
          const answer = (await (await route.fetch()).json()) as ProtectionState;
          await route.fulfill({ json: { ...answer, timeLimits: [] } });
        });
        await page.reload();
        await page.locator('.table .connection[data-state=connected]').waitFor(WAIT);
        await page.getByTestId('session').waitFor(WAIT);
        await page.waitForFunction(() => !document.querySelector('[data-testid=session]')?.textContent?.includes('…'), undefined, WAIT);
        assert.equal(await limit.count(), 0);
        assert.equal((await page.locator('header.top').boundingBox())!.height, header.height, 'the header keeps its height');
        assert.equal(await pageTop(page, '.stage'), board, 'the board does not move');
      } finally {
        await context.close();
      }
    });
  }

  it('shows the warning on every screen at 360 × 740: sign-in, lobby, table, watch, recall, and the dialogs fit', async () => {
    const { context, page } = await newPlayer(browser, SMALL_PHONE);
    const watcher = await context.newPage();
    try {
      await page.goto(`${base}/`);
      await assertWarning(page, 'sign-in', false);
      await assertAccessible(page, 'the sign-in, small phone');
      await page.getByLabel('Pseudonyme').fill(nextName('Every'));
      await page.getByRole('button', { name: 'Jouer', exact: true }).click();
      await setFirstLimits(page);
      await assertWarning(page, 'lobby', true);
      await assertNoSidewaysScroll(page, 'lobby, small phone');
      assert.deepEqual(await shownLines(page, '.session-now'), ['0 min', '0 €'], 'the header: the session’s time over its net');
      const header = (await page.locator('header.top').boundingBox())!;
      assert.ok(header.height <= 110, `the header is ${header.height} px high`);
      await openGame(page, 'rain-diamonds');
      await assertWarning(page, 'table', true);
      const band = (await page.getByTestId('warning').boundingBox())!;
      const stage = (await page.locator('.stage').boundingBox())!;
      assert.ok(band.y + band.height <= stage.y, 'the warning is above the board, not over it');
      await page.getByRole('button', { name: 'Mes limites' }).click();
      await page.getByRole('dialog', { name: 'Mes limites' }).waitFor(WAIT);
      await assertAccessible(page, '« Mes limites », small phone');
      await assertTargets(page, '« Mes limites », small phone');
      await assertNoSidewaysScroll(page, '« Mes limites », small phone');
      await page.keyboard.press('Escape');
      // A watcher, not signed in, sees it on the watched table.
      await showTab(page, 'Spectateurs');
      await page.getByRole('button', { name: 'Ouvrir ma table aux spectateurs' }).click();
      await watcher.goto(`${base}/`);
      await watcher.getByRole('button', { name: 'Regarder' }).first().click();
      await watcher.locator('.watch .connection[data-state=connected]').waitFor(WAIT);
      await assertWarning(watcher, 'watch', false);
      await buy(page, 'rain-diamonds', 50);
      await page.getByRole('button', { name: 'AUTO' }).click();
      await page.getByTestId('outcome').waitFor(WAIT);
      await showTab(page, 'Historique');
      await page.getByRole('button', { name: 'Revoir' }).first().click();
      await page.getByTestId('recall-step').waitFor(WAIT);
      await assertWarning(page, 'recall', true);
      await assertAccessible(page, 'a recall, small phone');
      await assertNoSidewaysScroll(page, 'a recall, small phone');
    } finally {
      await context.close();
    }
  });
});
