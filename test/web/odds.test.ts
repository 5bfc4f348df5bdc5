import { strict as assert } from 'node:assert';
import { gameCatalog } from '../../src/games/catalog';
import { STRINGS } from '../../web/src/i18n';
import { oneIn, payoutBasisPoints, percent, topPrize } from '../../web/src/odds';

describe('odds on the game screen (from the catalog, integers only)', () => {
  const fr = STRINGS.fr;

  it('writes the payout rate from integer basis points, rounded half up, never a float artefact', () => {
    const price = { stake: 50, blockSize: 3, tiers: [], totalPayout: 100, winningUnits: 1 };
    // 100 / 150 = 66.666…% → 6 667 basis points.
    assert.equal(payoutBasisPoints(price), 6667);
    assert.equal(percent(6667, fr), '66,67\u00a0%');
    assert.equal(percent(7005, STRINGS.en), '70.05\u00a0%');
    assert.equal(percent(5, fr), '0,05\u00a0%');
    // A rate a float would write 0.7000000000000001: 70 % exactly.
    assert.equal(percent(payoutBasisPoints({ ...price, blockSize: 10, stake: 10, totalPayout: 70 }), fr), '70,00\u00a0%');
  });

  it('gives each game its top prize, odds of winning and a payout rate below 100 % from the real catalog', () => {
    for (const game of gameCatalog(() => ({ unitMs: 0, stepMs: 0 }))) {
      assert.ok(topPrize(game) > 0, game.id);
      for (const price of game.prices) {
        const rate = payoutBasisPoints(price);
        assert.ok(rate > 0 && rate < 10_000, `${game.id} ${price.stake}: ${rate}`);
        assert.match(oneIn(price.blockSize, price.winningUnits, fr), /^[\d\s\u202f]+(,\d)?$/);
      }
    }
  });
});
