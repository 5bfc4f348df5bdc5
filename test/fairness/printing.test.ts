import { strict as assert } from 'node:assert';
import { createHash, createHmac } from 'node:crypto';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { nonceFor, Rng } from '../../src/random/rng';
import {
  commitmentOf,
  newBlockSeed,
  printBlock,
  printNewBlock,
  tierCounts,
  unitSeed,
  unitSeeds,
  UNSOLD,
  verifyBlock,
} from '../../src/fairness/printing';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i);

function countTiers(units: Uint8Array, tiers: number): number[] {
  const counts = new Array<number>(tiers + 1).fill(0);
  for (const t of units) counts[t]!++;
  return counts;
}

describe('block printing', () => {
  it('prints every one of the nine tables with exactly its counts per tier', function () {
    this.timeout(30_000);
    for (const table of PRIZE_TABLES) {
      const units = printBlock(table, newBlockSeed());
      assert.equal(units.length, table.blockSize);
      assert.deepEqual(countTiers(units, table.tiers.length), tierCounts(table), `${table.game} at ${table.stake}`);
    }
  });

  it('prints the same block from the same seed, and another from another seed', () => {
    assert.deepEqual(printBlock(TEN_UNIT_TABLE, SEED), printBlock(TEN_UNIT_TABLE, SEED));
    const big = { ...TEN_UNIT_TABLE, blockSize: 10_000 };
    assert.notDeepEqual(printBlock(big, newBlockSeed()), printBlock(big, newBlockSeed()));
  });

  it('is the documented recipe: tier ids in order, shuffled by Rng.shuffle under nonce "block"', () => {
    const table = { ...TEN_UNIT_TABLE, blockSize: 5_000 };
    const ordered = tierCounts(table).flatMap((count, tierId) => new Array<number>(count).fill(tierId));
    const expected = new Rng(SEED, nonceFor('block')).shuffle(ordered);
    assert.deepEqual([...printBlock(table, SEED)], expected);
  });

  it('keeps printing a known block from a known seed (frozen vector)', () => {
    const units = printBlock(TEN_UNIT_TABLE, SEED);
    assert.deepEqual([...units], [3, 7, 4, 6, 5, 0, 0, 6, 0, 0]);
    const commitment = createHash('sha256').update(Buffer.concat([SEED, units])).digest('hex');
    assert.equal(commitment, '73452734c323de5051936479bb7ac2f167d35efbc5c96b399bb9e57da6bcdacb');
    assert.equal(commitmentOf(SEED, units, { version: 2 }), commitment);
  });

  it('commits under scheme 3 in the block\'s domain: the same seed commits differently in another block, game or price', () => {
    const units = printBlock(TEN_UNIT_TABLE, SEED);
    const domain = { version: 3, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, blockId: 'e.0' } as const;
    const tag = createHash('sha256').update(`block-commitment/v3|${domain.game}|${domain.stake}|e.0`, 'utf8').digest();
    assert.equal(commitmentOf(SEED, units, domain), createHash('sha256').update(Buffer.concat([tag, tag, SEED, units])).digest('hex'));
    const others = [{ ...domain, blockId: 'e.1' }, { ...domain, stake: domain.stake + 50 }, { ...domain, game: 'mine-d-or' }];
    for (const other of others) assert.notEqual(commitmentOf(SEED, units, other), commitmentOf(SEED, units, domain), JSON.stringify(other));
  });

  it('refuses tables that cannot be printed and seeds of the wrong size', () => {
    assert.throws(() => printBlock({ ...TEN_UNIT_TABLE, tiers: [{ prize: 100, count: 11 }] }, SEED), /more winners/);
    assert.throws(() => printBlock({ ...TEN_UNIT_TABLE, blockSize: 0 }, SEED), /block size/);
    assert.throws(() => printBlock({ ...TEN_UNIT_TABLE, tiers: [{ prize: 0, count: 1 }] }, SEED), /prize/);
    assert.throws(() => printBlock({ ...TEN_UNIT_TABLE, tiers: Array.from({ length: 255 }, () => ({ prize: 1, count: 0 })) }, SEED), /tiers/);
    assert.throws(() => printBlock(TEN_UNIT_TABLE, new Uint8Array(16)), /32 bytes/);
  });
});

describe('unit seeds', () => {
  it('are HMAC-SHA256 of "unit-seed/v1/<position>" under the block seed', () => {
    const expected = createHmac('sha256', Buffer.from(SEED)).update('unit-seed/v1/7').digest();
    assert.deepEqual(Buffer.from(unitSeed(SEED, 7)), expected);
    assert.equal(Buffer.from(expected).toString('hex'), '313bad52445d2ef2f98199812faa7da600efacd54ce110913a7ac82cb04b5017');
  });

  it('differ from one position to the next', () => {
    const seeds = new Set(Array.from({ length: 1_000 }, (_, p) => Buffer.from(unitSeed(SEED, p)).toString('hex')));
    assert.equal(seeds.size, 1_000);
    assert.throws(() => unitSeed(SEED, -1));
  });
});

describe('block verification', () => {
  const table = { ...TEN_UNIT_TABLE, blockSize: 1_000 };
  const printed = printNewBlock(table, 'e.0');
  const check = { table, seed: printed.seed, commitment: printed.commitment, scheme: printed.scheme, recordedTiers: printed.units.slice(), requireAllSold: true };

  it('accepts a block whose every sale matches the re-print', () => {
    assert.deepEqual(verifyBlock(check), { ok: true, checkedUnits: 1_000, problems: [] });
  });

  it('finds a sale recorded with another tier than printed', () => {
    const recordedTiers = printed.units.slice();
    recordedTiers[42] = (recordedTiers[42]! + 1) % 8;
    const result = verifyBlock({ ...check, recordedTiers });
    assert.equal(result.ok, false);
    assert.deepEqual(result.problems, [`position 42: sold as tier ${recordedTiers[42]}, printed tier ${printed.units[42]}`]);
  });

  it('finds a commitment or a seed that does not match', () => {
    assert.match(verifyBlock({ ...check, commitment: '0'.repeat(64) }).problems.join(), /commitment mismatch/);
    const other = verifyBlock({ ...check, seed: newBlockSeed() });
    assert.equal(other.ok, false);
    assert.match(other.problems.join('\n'), /commitment mismatch/);
    assert.match(other.problems.join('\n'), /positions differ in all|position \d+/);
  });

  it('finds unsold positions in a block that should be sold out, and only then', () => {
    const recordedTiers = printed.units.slice();
    recordedTiers.fill(UNSOLD, 900);
    assert.deepEqual(verifyBlock({ ...check, recordedTiers }).problems, ['100 positions have no recorded sale']);
    assert.deepEqual(verifyBlock({ ...check, recordedTiers, requireAllSold: false }), { ok: true, checkedUnits: 900, problems: [] });
  });
});

describe('unit seeds of a page', () => {
  it('are the HMAC of unitSeed, position by position, from any start', () => {
    for (const [from, count] of [[0, 20], [4_095, 3], [8_015_990, 10], [999_999_999, 2]] as const) {
      const seeds = unitSeeds(SEED, from, count);
      for (let i = 0; i < count; i++) assert.deepEqual(seeds.subarray(32 * i, 32 * i + 32), unitSeed(SEED, from + i), `position ${from + i}`);
    }
  });
});
