import { strict as assert } from 'node:assert';
import { SignJWT } from 'jose';
import type { ProtectionState } from '../../src/protocol/protection';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

const SECRET = 'protection-routes-secret-of-32-chars';
const OPERATOR = 'operator-token-for-the-protection-tests';

describe('protection routes', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await startTestServer({ JWT_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server.stop();
  });

  const tokenOf = (playerId: string) => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(playerId).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const call = async (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('answers a new player’s state: three limits unset, no stake limit, nothing running', async () => {
    const state = (await (await call('GET', '/protection', await tokenOf('prot-1'))).json()) as ProtectionState;
    assert.deepEqual(state.limits.map((l) => [l.kind, l.amount, l.used, l.left]), [['stake_week', null, 0, null], ['stake_day', null, 0, null], ['deposit_week', null, 0, null]]);
    assert.equal(state.stakeLimitSet, false);
    assert.deepEqual([state.excludedUntil, state.blocked, state.history], [null, null, []]);
    assert.equal(state.session.realityCheckEveryMs, 60 * 60_000);
  });

  it('sets a first limit at once, keeps a raise pending and journals both', async () => {
    const token = await tokenOf('prot-2');
    assert.equal((await call('PUT', '/protection/limits', token, { stake_week: 5000 })).status, 200);
    const state = (await (await call('PUT', '/protection/limits', token, { stake_week: 9000, deposit_week: 20000 })).json()) as ProtectionState;
    const week = state.limits[0]!;
    assert.equal(week.amount, 5000);
    assert.equal(week.pending?.amount, 9000);
    assert.ok(week.pending!.effectiveAt >= state.now + 48 * 3_600_000 - 1000);
    assert.equal(state.limits[2]!.amount, 20000);
    assert.equal(state.stakeLimitSet, true);
    assert.deepEqual(state.history.map((c) => [c.what, c.kind, c.amount]), [['limit', 'deposit_week', 20000], ['limit', 'stake_week', 9000], ['limit', 'stake_week', 5000]]);
  });

  it('refuses limits that are not whole cents in bounds, unknown fields, and removing the weekly stake limit', async () => {
    const token = await tokenOf('prot-3');
    for (const body of [{}, { stake_week: 99 }, { stake_week: 100.5 }, { stake_week: 100_000_001 }, { stake_week: null }, { loss: 1000 }, { stake_day: '1000' }]) {
      const res = await call('PUT', '/protection/limits', token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await codeOf(res), 'limit/malformed');
    }
  });

  it('sets the playing-time limits in whole minutes within their windows, a raise waiting 48 hours, and refuses others', async () => {
    const token = await tokenOf('prot-time');
    const first = (await (await call('PUT', '/protection/limits', token, { stake_week: 5000, time_day: 60 * 60_000, time_week: 5 * 3_600_000 })).json()) as ProtectionState;
    assert.deepEqual(first.timeLimits.map((l) => [l.kind, l.amount, l.used, l.left]), [['time_day', 3_600_000, 0, 3_600_000], ['time_week', 18_000_000, 0, 18_000_000]]);
    const raised = (await (await call('PUT', '/protection/limits', token, { time_day: 2 * 3_600_000 })).json()) as ProtectionState;
    assert.equal(raised.timeLimits[0]!.amount, 3_600_000, 'a raise waits');
    assert.ok(raised.timeLimits[0]!.pending!.effectiveAt >= raised.now + 48 * 3_600_000 - 1000);
    for (const body of [{ time_day: 14 * 60_000 }, { time_day: 20 * 60_000 + 1 }, { time_day: 25 * 3_600_000 }, { time_week: 169 * 3_600_000 }, { time_week: '3600000' }]) {
      const res = await call('PUT', '/protection/limits', token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await codeOf(res), 'limit/malformed');
    }
  });

  it('sets the player’s reality check interval within 15 minutes and the server’s, and refuses others', async () => {
    const token = await tokenOf('prot-interval');
    const state = (await (await call('PUT', '/protection/reality-check-interval', token, { everyMs: 20 * 60_000 })).json()) as ProtectionState;
    assert.deepEqual([state.session.realityCheckEveryMs, state.session.realityCheckChosenMs], [20 * 60_000, 20 * 60_000]);
    assert.deepEqual(state.history.map((c) => [c.what, c.amount]), [['reality_check_interval', 20 * 60_000]]);
    for (const body of [{ everyMs: 14 * 60_000 }, { everyMs: 61 * 60_000 }, { everyMs: 20 * 60_000 + 1 }, {}, { everyMs: '1200000' }]) {
      const res = await call('PUT', '/protection/reality-check-interval', token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(await codeOf(res), 'protection/malformed');
    }
    const back = (await (await call('PUT', '/protection/reality-check-interval', token, { everyMs: null })).json()) as ProtectionState;
    assert.deepEqual([back.session.realityCheckEveryMs, back.session.realityCheckChosenMs], [60 * 60_000, null]);
  });

  it('excludes at once, never shortens, and refuses an unknown duration', async () => {
    const token = await tokenOf('prot-4');
    const long = (await (await call('POST', '/protection/exclusion', token, { duration: '7d' })).json()) as ProtectionState;
    assert.ok(long.excludedUntil! >= long.now + 7 * 86_400_000 - 1000);
    const after = (await (await call('POST', '/protection/exclusion', token, { duration: '24h' })).json()) as ProtectionState;
    assert.equal(after.excludedUntil, long.excludedUntil);
    assert.equal(await codeOf(await call('POST', '/protection/exclusion', token, { duration: '2y' })), 'protection/malformed');
  });

  it('lets only the operator read a player’s state and block or unblock them, journaled as the operator', async () => {
    const player = await tokenOf('prot-5');
    assert.equal(await codeOf(await call('GET', '/admin/players/prot-5/protection', player)), 'auth/operator_only');
    assert.equal(await codeOf(await call('PUT', '/admin/players/prot-5/block', player, { reason: 'minor' })), 'auth/operator_only');
    assert.equal(await codeOf(await call('PUT', '/admin/players/prot-5/block', OPERATOR, { reason: 'tired' })), 'protection/malformed');
    const blocked = (await (await call('PUT', '/admin/players/prot-5/block', OPERATOR, { reason: 'national_ban' })).json()) as ProtectionState;
    assert.deepEqual(blocked.blocked, { reason: 'national_ban', until: null });
    const unblocked = (await (await call('DELETE', '/admin/players/prot-5/block', OPERATOR)).json()) as ProtectionState;
    assert.equal(unblocked.blocked, null);
    assert.deepEqual(unblocked.history.map((c) => [c.what, c.by]), [['unblock', 'operator'], ['block', 'operator']]);
  });

  it('refuses a block whose end is past (0, or seconds given for ms) with protection/block_ended, and journals nothing', async () => {
    for (const until of [0, Math.floor(Date.now() / 1000) + 86_400]) {
      const res = await call('PUT', '/admin/players/prot-7/block', OPERATOR, { reason: 'minor', until });
      assert.equal(res.status, 400, `until ${until}`);
      assert.equal(await codeOf(res), 'protection/block_ended');
    }
    const state = (await (await call('GET', '/admin/players/prot-7/protection', OPERATOR)).json()) as ProtectionState;
    assert.deepEqual([state.blocked, state.history], [null, []]);
    const ahead = Date.now() + 3_600_000;
    const blocked = (await (await call('PUT', '/admin/players/prot-7/block', OPERATOR, { reason: 'minor', until: ahead })).json()) as ProtectionState;
    assert.deepEqual(blocked.blocked, { reason: 'minor', until: ahead });
  });

  it('refuses a deposit over the weekly deposit limit and journals the refusal, a run of them as one line', async () => {
    const token = await tokenOf('prot-6');
    assert.equal((await call('PUT', '/protection/limits', token, { stake_week: 5000, deposit_week: 10000 })).status, 200);
    const deposit = (amount: number, requestId: string) => call('POST', '/admin/wallets/prot-6/deposit', OPERATOR, { amount, requestId });
    assert.equal((await deposit(10000, 'd1')).status, 200, 'the limit itself passes');
    for (const requestId of ['d2', 'd3']) {
      const refused = await deposit(1, requestId);
      assert.equal(refused.status, 409);
      assert.equal(await codeOf(refused), 'limit/deposit_week');
    }
    const state = (await (await call('GET', '/admin/players/prot-6/protection', OPERATOR)).json()) as ProtectionState;
    assert.deepEqual(state.history.map((c) => [c.what, c.code, c.count]).slice(0, 1), [['refusal', 'limit/deposit_week', 2]]);
  });

  it('asks the player’s token on the player routes', async () => {
    const res = await fetch(`${base}/protection`);
    assert.equal(res.status, 401);
    assert.equal(await codeOf(res), 'auth/missing');
  });
});
