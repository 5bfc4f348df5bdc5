import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../src/dealer/memory/store';
import { ProtectionService } from '../../src/play/protection-service';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const T0 = 1_764_000_000_000;
const MINUTE = 60_000;
const SETTINGS = { realityCheckMs: 60 * MINUTE, sessionIdleMs: 30 * MINUTE, raiseDelayMs: 48 * 60 * MINUTE };

describe('protection service', () => {
  /** A player in a session opened at T0, kept open by purchases at 20 and 40 minutes (under the idle time), and the clock the test moves. */
  async function inASession() {
    let now = T0;
    const dealer = new MemoryStore();
    const protection = new ProtectionService(dealer.protections, SETTINGS, () => now);
    await dealer.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 10, now });
    await dealer.wallets.deposit('p1', 10_000, 'd1', now);
    await protection.setLimits('p1', { stake_week: 10_000 });
    let requests = 0;
    const buy = () =>
      dealer.sales.purchase({ playerId: 'p1', requestId: `r${++requests}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now, protection: SETTINGS });
    for (const minutes of [0, 20, 40]) {
      now = T0 + minutes * MINUTE;
      assert.ok((await buy()).ok);
    }
    return { protection, buy, at: (minutes: number) => (now = T0 + minutes * MINUTE) };
  }

  describe('the reality check', () => {
    it('takes no acknowledgement before the check is due: it changes nothing, journals nothing, and the check comes on time', async () => {
      const { protection, buy, at } = await inASession();
      at(59);
      const early = await protection.acknowledgeRealityCheck('p1');
      assert.equal(early.session.realityCheckDue, false);
      assert.deepEqual(early.history.map((c) => c.what), ['limit'], 'no acknowledgement journaled');
      at(60);
      const refused = await buy();
      assert.ok(!refused.ok && refused.code === 'protection/reality_check', 'the check is due an hour into the session all the same');
    });

    it('takes the acknowledgement of a check that is due, journals it, and sells again', async () => {
      const { protection, buy, at } = await inASession();
      at(61);
      assert.equal((await protection.state('p1')).session.realityCheckDue, true);
      const acknowledged = await protection.acknowledgeRealityCheck('p1');
      assert.equal(acknowledged.session.realityCheckDue, false);
      assert.equal(acknowledged.history[0]?.what, 'reality_check_ack');
      assert.ok((await buy()).ok);
      at(62);
      const again = await protection.acknowledgeRealityCheck('p1');
      assert.equal(again.session.startedAt, T0, 'the session goes on');
      assert.equal(again.history.filter((c) => c.what === 'reality_check_ack').length, 1, 'that one, not a second: the next check is not due');
    });
  });

  describe('the operator’s block', () => {
    it('refuses an end already past (0, a date in seconds read as ms, this very ms): nothing blocked, journaled or sent to the archive', async () => {
      const dealer = new MemoryStore();
      const protection = new ProtectionService(dealer.protections, SETTINGS, () => T0);
      for (const until of [0, Math.floor(T0 / 1000) + 86_400, T0]) {
        assert.equal(await protection.block('p1', 'minor', until), 'ended', `until ${until}`);
      }
      const state = await protection.state('p1');
      assert.deepEqual([state.blocked, state.history], [null, []]);
      assert.deepEqual(await dealer.outbox.read('money', undefined, 10), [], 'no line for the archive');
    });

    it('takes an end one ms ahead, and none', async () => {
      const dealer = new MemoryStore();
      const protection = new ProtectionService(dealer.protections, SETTINGS, () => T0);
      const until = await protection.block('p1', 'minor', T0 + 1);
      assert.ok(until !== 'ended' && until.blocked?.until === T0 + 1);
      const forever = await protection.block('p2', 'identity', null);
      assert.ok(forever !== 'ended' && forever.blocked?.until === null);
      assert.equal((await dealer.outbox.read('money', undefined, 10)).length, 2);
    });
  });

  describe("the operator's protection given at launch", () => {
    const service = () => {
      const dealer = new MemoryStore();
      return { dealer, protection: new ProtectionService(dealer.protections, SETTINGS, () => T0) };
    };

    it("applies the operator's exclusion as its block, and never shortens a block that runs longer", async () => {
      const { dealer, protection } = service();
      await protection.fromOperator('p1', { stake_week: null, stake_day: null }, T0 + 60 * MINUTE);
      assert.deepEqual((await protection.state('p1')).blocked, { reason: 'operator_exclusion', until: T0 + 60 * MINUTE });
      await protection.block('p1', 'national_ban', null);
      await protection.fromOperator('p1', { stake_week: null, stake_day: null }, T0 + 120 * MINUTE);
      assert.deepEqual((await protection.state('p1')).blocked, { reason: 'national_ban', until: null });
      const blocks = (await dealer.protections.protectionRecord('p1')).history.filter((c) => c.what === 'block');
      assert.deepEqual(blocks.map((c) => [c.by, c.reason]), [['operator', 'national_ban'], ['operator', 'operator_exclusion']]);
    });

    it("reads ahead of a debit the stricter of the player's limit and the operator's, saying whose", async () => {
      const { protection } = service();
      await protection.setLimits('p1', { stake_week: 1_000 });
      await protection.fromOperator('p1', { stake_week: 500, stake_day: null }, undefined);
      assert.equal(await protection.purchaseRefusal('p1', 500), undefined);
      const refused = await protection.purchaseRefusal('p1', 501);
      assert.equal(refused?.code, 'limit/stake_week');
      assert.deepEqual(refused?.details, { limit: 'stake_week', left: 500, nextFreeAt: null, source: 'operator' });
      await protection.fromOperator('p1', { stake_week: 2_000, stake_day: null }, undefined);
      assert.equal((await protection.purchaseRefusal('p1', 1_001))?.details?.source, 'player');
    });
  });
});
