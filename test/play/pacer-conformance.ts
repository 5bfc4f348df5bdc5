import { strict as assert } from 'node:assert';
import type { GameId, Refusal } from '../../src/games/types';
import type { PaceSettings, Pacer, PaceStarted } from '../../src/play/pacing';

/** The one suite every Pacer passes: `open(handles, settings, now)` gives views of one fresh pace, on the clock `now`. */
export type PacerFactory = (handles: number, settings: PaceSettings, now: () => number) => Promise<{ pacers: Pacer[]; close(): Promise<void> }>;

const T0 = 1_764_000_000_000;
/** One unit a second; Mine d'or one every 3 s; Rain of diamonds unpaced. */
const SETTINGS: PaceSettings = { unitMs: 1000, stepMs: 100, byGame: { 'mine-d-or': { unitMs: 3000, stepMs: 100 }, 'rain-diamonds': { unitMs: 0, stepMs: 100 } } };
const PACED: GameId = '500000-carats';

function started(result: PaceStarted | Refusal): PaceStarted {
  assert.ok(result.ok, `refused: ${result.ok ? '' : result.message}`);
  return result;
}

function waitOf(result: PaceStarted | Refusal): number | undefined {
  assert.equal(result.ok ? undefined : result.code, 'pace/too_fast');
  return result.ok ? undefined : (result.details?.['retryAfterMs'] as number);
}

export function pacerConformance(name: string, open: PacerFactory): void {
  describe(`the pace of play (${name})`, () => {
    let close: (() => Promise<void>) | undefined;
    let now = T0;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });
    async function pacers(handles = 1): Promise<Pacer[]> {
      now = T0;
      const opened = await open(handles, SETTINGS, () => now);
      close = opened.close;
      return opened.pacers;
    }

    it('refuses a start unitMs − 1 after the last with retryAfterMs 1, and takes one at unitMs', async () => {
      const [pacer] = await pacers();
      started(await pacer!.start('p1', PACED));
      now = T0 + 999;
      assert.equal(waitOf(await pacer!.start('p1', PACED)), 1);
      now = T0 + 1000;
      started(await pacer!.start('p1', PACED));
      now = T0 + 1999;
      assert.equal(waitOf(await pacer!.start('p1', PACED)), 1);
    });

    it('never refuses an unpaced game, even after a start stamped ahead of this reading of the clock (another process’s, a millisecond ahead)', async () => {
      const [pacer] = await pacers();
      now = T0 + 5;
      started(await pacer!.start('p1', 'rain-diamonds'));
      now = T0;
      started(await pacer!.start('p1', 'rain-diamonds'));
    });

    it('holds the new unit’s game’s pace against the player’s last start, whatever its game, and each player apart', async () => {
      const [pacer] = await pacers();
      started(await pacer!.start('p1', PACED));
      started(await pacer!.start('p2', PACED));
      now = T0 + 1000;
      assert.equal(waitOf(await pacer!.start('p1', 'mine-d-or')), 2000);
      now = T0 + 3000;
      started(await pacer!.start('p1', 'mine-d-or'));
      // An unpaced game starts at once, and its start holds the others' pace.
      started(await pacer!.start('p1', 'rain-diamonds'));
      now = T0 + 3500;
      assert.equal(waitOf(await pacer!.start('p1', PACED)), 500);
    });

    it('gives a refused purchase’s start back: the start before it holds again, or none', async () => {
      const [pacer] = await pacers();
      const first = started(await pacer!.start('p1', PACED));
      await first.release();
      now = T0 + 1;
      started(await pacer!.start('p1', PACED));
      now = T0 + 500;
      const second = started(await pacer!.start('p1', 'rain-diamonds'));
      await second.release();
      assert.equal(waitOf(await pacer!.start('p1', PACED)), 501, 'the first start holds again');
    });

    it('gives a start back only by its holder: a stale release leaves a later start, even one of the same millisecond', async () => {
      const [pacer] = await pacers();
      const first = started(await pacer!.start('p1', PACED));
      now = T0 + 1000;
      started(await pacer!.start('p1', PACED));
      await first.release();
      now = T0 + 1500;
      assert.equal(waitOf(await pacer!.start('p1', PACED)), 500, 'the later start stays');
      // Two starts of an unpaced game in one millisecond: the first's release leaves the second's.
      now = T0 + 3000;
      const a = started(await pacer!.start('p2', 'rain-diamonds'));
      started(await pacer!.start('p2', 'rain-diamonds'));
      await a.release();
      now = T0 + 3001;
      assert.equal(waitOf(await pacer!.start('p2', PACED)), 999);
    });

    it('lets one of two starts racing from two handles pass', async () => {
      const handles = await pacers(2);
      for (let round = 0; round < 20; round++) {
        now = T0 + round * 1000;
        const results = await Promise.all(handles.map((pacer) => pacer.start('p1', PACED)));
        assert.deepEqual(results.map((r) => r.ok).sort(), [false, true], `round ${round}`);
        assert.equal(waitOf(results.find((r) => !r.ok)!), 1000);
      }
    });
  });
}
