import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/sdk';
import type { ArchiveRecord } from '../../src/archive/records';
import { verifyArchive } from '../../src/archive/verify';
import { tempDir } from '../archive/support/archive-fixture';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';

/** The wire texts of the steps a client's table state holds for its first unit. */
function wireSteps(room: Room): string[] {
  const state = room.state as { units: Iterable<{ steps: Iterable<string> }> };
  return [...[...state.units][0]!.steps];
}

interface Shown {
  readonly unit: string;
  readonly seq: number;
  readonly steps: string[];
}

/** An action no game has, longer than the archive keeps a client's value. */
const LONG = { action: { type: 'x'.repeat(3000) } };

const shownOf = (r: ArchiveRecord) => (r.payload['shown'] ?? []) as unknown as Shown[];

describe('the play stream of the archive', () => {
  it('records each step a table shows its player, as the table sends it, with the message that showed it or on its own', async function () {
    this.timeout(60_000);
    const { dir, remove } = await tempDir();
    try {
      const server = await startTestServer({ ARCHIVE_DIR: dir, ARCHIVE_SEAL_SECONDS: '3600' });
      let playerId: string;
      let unitId: string;
      let firstRoom: string[];
      let resumedRoom: string[];
      try {
        const player = await devLogin(server);
        playerId = player.playerId;
        const room = await player.client.create('table', { game: 'rain-diamonds' });
        record(room);
        ({ unitIds: [unitId] } = (await room.request('buy', { stake: 50, requestId: 'shown_1' })) as { unitIds: [string] });
        await room.request('act', { action: { type: 'open', box: 2 } });
        // A client's message over 2,048 characters is kept as its length; the refusal shows nothing.
        await assert.rejects(room.request('act', LONG));
        await room.request('act', { action: { type: 'open', box: 0 } });
        await until(room, () => decodedUnits(room)[0]!.steps.length === 3, 'two boxes opened');
        firstRoom = wireSteps(room);
        await room.leave();
        // Another table: the unit comes back with its steps so far, shown again there.
        const again = await player.client.create('table', { game: 'rain-diamonds' });
        await record(again).next('resumed');
        await again.request('act', { action: { type: 'auto' } });
        await until(again, () => decodedUnits(again)[0]!.status === 'finished', 'the unit to finish');
        resumedRoom = wireSteps(again);
        await again.leave();
      } finally {
        await server.stop();
      }
      const { problems, records } = await verifyArchive(dir);
      assert.deepEqual(problems, []);
      const play = records.get('play')!.filter((r) => r.player === playerId);
      assert.deepEqual(play.map((r) => r.kind), ['sign_in', 'buy', 'act', 'act', 'act', 'sign_in', 'shown', 'act']);
      const [, buy, open2, long, open0, , resumed, auto] = play as [ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord, ArchiveRecord];

      assert.deepEqual(shownOf(buy), [{ unit: unitId!, seq: 0, steps: firstRoom!.slice(0, 1) }], 'the purchase\'s step');
      assert.deepEqual(shownOf(open2), [{ unit: unitId!, seq: 1, steps: firstRoom!.slice(1, 2) }]);
      assert.deepEqual(long.payload['message'], { chars: JSON.stringify(LONG).length });
      assert.ok(long.payload['refused'] !== undefined && long.payload['shown'] === undefined, 'refused, nothing shown');
      assert.deepEqual(shownOf(open0), [{ unit: unitId!, seq: 2, steps: firstRoom!.slice(2, 3) }]);
      assert.equal(resumed.session, auto.session, 'shown on joining, to the session that joined');
      assert.deepEqual(shownOf(resumed), [{ unit: unitId!, seq: 0, steps: firstRoom! }], 'the steps so far, shown again by the new table');
      assert.deepEqual(shownOf(auto), [{ unit: unitId!, seq: 3, steps: resumedRoom!.slice(3) }], 'every step to the end, whatever its length');
      assert.ok(resumedRoom!.length > 3);
    } finally {
      await remove();
    }
  });

  it('records what the player says they uncovered (Mine d’or), with its answer or its refusal', async function () {
    this.timeout(60_000);
    const { dir, remove } = await tempDir();
    try {
      const server = await startTestServer({ ARCHIVE_DIR: dir, ARCHIVE_SEAL_SECONDS: '3600' });
      let playerId: string;
      let unitId: string;
      try {
        const player = await devLogin(server, 'Scratch');
        playerId = player.playerId;
        const room = await player.client.create('table', { game: 'mine-d-or' });
        record(room);
        ({ unitIds: [unitId] } = (await room.request('buy', { stake: 50, requestId: 'uncovered_1' })) as { unitIds: [string] });
        await room.request('uncovered', { unitId, steps: 1 });
        await assert.rejects(room.request('uncovered', { unitId, steps: 9 }));
        await room.leave();
      } finally {
        await server.stop();
      }
      const { problems, records } = await verifyArchive(dir);
      assert.deepEqual(problems, []);
      const said = records.get('play')!.filter((r) => r.player === playerId && r.kind === 'uncovered');
      assert.deepEqual(said.map((r) => r.payload), [
        { game: 'mine-d-or', message: { unitId: unitId!, steps: 1 }, reply: { unitId: unitId!, steps: 1 } },
        { game: 'mine-d-or', message: { unitId: unitId!, steps: 9 }, refused: 'uncovered/not_shown' },
      ]);
    } finally {
      await remove();
    }
  });
});
