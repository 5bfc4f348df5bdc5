import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server/app';
import { createLogger, withoutSecrets } from '../../src/server/logger';
import { decodedUnits, devLogin, record, until } from '../support/game-server';

describe('logs', function () {
  this.timeout(30_000);
  let server: RunningServer;
  const lines: Record<string, unknown>[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    server = await startServer(loadConfig({ PORT: '0', EMISSION_BLOCKS: '1' }), { logger: createLogger('info', sink) });
  });
  after(async () => {
    await server.stop();
  });

  it('writes JSON lines that carry the unit\'s ids through its life, and no token or balance', async () => {
    const player = await devLogin(server);
    const room = await player.client.create('table', { game: 'rain-diamonds' });
    record(room);
    const { unitIds } = (await room.request('buy', { stake: 50, requestId: 'log_1' })) as { unitIds: string[] };
    await room.request('act', { action: { type: 'auto' } });
    await until(room, () => decodedUnits(room)[0]?.status === 'finished', 'the unit finished');
    await room.leave();
    await new Promise((resolve) => setTimeout(resolve, 100));

    const opened = lines.find((l) => l['msg'] === 'table opened');
    assert.deepEqual(
      { roomId: opened?.['roomId'], playerId: opened?.['playerId'], game: opened?.['game'] },
      { roomId: room.roomId, playerId: player.playerId, game: 'rain-diamonds' },
      'the line that ties the room to its player and game',
    );
    const sold = lines.find((l) => l['msg'] === 'unit sold');
    assert.deepEqual(
      { playerId: sold?.['playerId'], unitId: sold?.['unitId'], requestId: sold?.['requestId'] },
      { playerId: player.playerId, unitId: unitIds[0], requestId: 'log_1' },
    );
    const settled = lines.find((l) => l['msg'] === 'unit settled');
    assert.equal(settled?.['unitId'], unitIds[0]);
    assert.ok(lines.every((l) => typeof l['level'] === 'string' && typeof l['time'] === 'string'));
    const all = JSON.stringify(lines);
    assert.ok(!all.includes(player.token), 'no token');
    assert.ok(!/"balance(Before|After)?":/.test(all), 'no balance');
  });

  it('redacts a token or a balance logged whole by mistake', () => {
    const out: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void out.push(line) });
    logger.info({ token: 'secret-token', wallet: { balance: 1234 }, headers: { authorization: 'Bearer x' } }, 'oops');
    logger.info({ balanceBefore: 5678, balanceAfter: 9012 }, 'oops again');
    logger.error({ err: Object.assign(new Error('boom'), { token: 'error-token' }) }, 'failed');
    const written = out.join('');
    assert.doesNotMatch(written, /secret-token|1234|Bearer|5678|9012|error-token/);
    const failed = JSON.parse(out.at(-1)!) as { err: { message: string; stack: string; token: string } };
    assert.equal(failed.err.message, 'boom', 'the error is still shown');
    assert.equal((failed.err as { type?: string }).type, 'Error');
    assert.ok(failed.err.stack.includes('boom'));
    assert.equal(failed.err.token, '[redacted]');
  });

  it('writes a line without secrets as it was given, with no copy', () => {
    const fields = { unitId: 'u_1', won: true, nested: { game: 'mine-d-or' } };
    assert.equal(withoutSecrets(fields), fields);
    assert.deepEqual(withoutSecrets({ wallet: { balance: 1, held: 2 } }), { wallet: { balance: '[redacted]', held: 2 } });
  });
});
