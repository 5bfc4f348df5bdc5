import { strict as assert } from 'node:assert';
import { normalizePseudonym } from '../../src/auth/pseudonym';
import { maskPseudonym } from '../../src/feed/win-feed';
import { playerIndexOf, playerPseudonym } from '../../loadtest/pseudonyms';

describe('synthetic players\' pseudonyms', () => {
  const prefix = 'lt0a1b2c3d-';

  it('are pseudonyms the server takes as they are', () => {
    for (const index of [0, 35, 36, 19_999, 46_655]) {
      const name = playerPseudonym(prefix, index);
      assert.equal(normalizePseudonym(name), name);
    }
  });

  it('name their player masked as the feed shows them, and whole', () => {
    for (const index of [0, 7, 1295, 19_999]) {
      const name = playerPseudonym(prefix, index);
      assert.equal(playerIndexOf(maskPseudonym(name), prefix), index);
      assert.equal(playerIndexOf(name, prefix), index);
    }
  });

  it('name no player for a pseudonym of another run or of a person', () => {
    assert.equal(playerIndexOf(playerPseudonym('lt99999999-', 4), prefix), undefined);
    for (const other of ['Alice', 'Ali***', 'a player', 42, undefined]) assert.equal(playerIndexOf(other, prefix), undefined);
  });

  it('refuses an index past what three base-36 characters hold', () => {
    assert.throws(() => playerPseudonym(prefix, 46_656), RangeError);
  });
});
