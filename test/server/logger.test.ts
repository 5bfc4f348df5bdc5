import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server/app';
import { createLogger, isoTime, LineChunks, OrderedFdSink, type ChunkSink, withoutSecrets } from '../../src/server/logger';
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

describe('isoTime', () => {
  it('writes the time as Date#toISOString does, in the second it names and across seconds', () => {
    const start = Date.UTC(2026, 11, 31, 23, 59, 58);
    for (const at of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1999, 2000, 2009, 60_000, 3_600_123]) {
      assert.equal(isoTime(start + at), `,"time":"${new Date(start + at).toISOString()}"`);
    }
    assert.equal(isoTime(start + 5), `,"time":"${new Date(start + 5).toISOString()}"`, 'back to an earlier second');
  });
});

describe('log line chunks', () => {
  function sink() {
    const calls: string[] = [];
    const out: ChunkSink = {
      write: (chunk) => (calls.push(`write ${chunk}`), true),
      flush: () => void calls.push('flush'),
      flushSync: () => void calls.push('flushSync'),
    };
    return { calls, out };
  }

  it('hands lines over in order, a chunk at a time, once they make a chunk', () => {
    const { calls, out } = sink();
    const chunks = new LineChunks(out, 10);
    chunks.write('aaaa\n');
    chunks.write('bbbb\n');
    chunks.write('cc\n');
    chunks.write('dddddddd\n');
    assert.deepEqual(calls, ['write aaaa\nbbbb\n', 'write cc\ndddddddd\n']);
  });

  it('counts a line by its bytes, not its characters', () => {
    const { calls, out } = sink();
    new LineChunks(out, 10).write('éééé\n'); // 9 bytes in UTF-8 with its new line, 5 characters
    assert.deepEqual(calls, []);
    const chunks = new LineChunks(out, 10);
    chunks.write('ééééé\n');
    assert.deepEqual(calls, ['write ééééé\n']);
  });

  it('writes a rest smaller than a chunk when flushed', () => {
    const { calls, out } = sink();
    const chunks = new LineChunks(out, 100);
    chunks.flush();
    chunks.write('a\n');
    chunks.flush();
    assert.deepEqual(calls, ['flush', 'write a\n', 'flush']);
  });

  it('drains its sink before handing it the rest, then writes it synchronously', () => {
    const { calls, out } = sink();
    const chunks = new LineChunks(out, 100);
    chunks.write('a\n');
    chunks.flushSync();
    assert.deepEqual(calls, ['flushSync', 'write a\n', 'flushSync']);
  });
});

describe('ordered fd sink', () => {
  /** A reader that takes `accepts[k]` bytes at its k-th write (-1: EAGAIN, the pipe is full), then everything. */
  function reader(accepts: number[]) {
    let got = '';
    const writeSync = (_fd: number, buffer: Buffer): number => {
      const n = accepts.shift() ?? buffer.length;
      if (n < 0) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable'), { code: 'EAGAIN' });
      got += buffer.subarray(0, n).toString();
      return n;
    };
    return { writeSync, got: () => got };
  }

  it('keeps what a full pipe did not take and writes it first, in order, with the next chunk', () => {
    const r = reader([3, -1]);
    const sink = new OrderedFdSink(1, r.writeSync);
    sink.write('abcdef|');
    assert.equal(r.got(), 'abc', 'a partial write');
    sink.write('ghi|');
    assert.equal(r.got(), 'abc', 'EAGAIN: nothing lost, nothing reordered');
    sink.flush();
    assert.equal(r.got(), 'abcdef|ghi|');
  });

  it('waits for the reader at exit', () => {
    const r = reader([-1, -1, -1]);
    const sink = new OrderedFdSink(1, r.writeSync);
    sink.write('last line\n');
    sink.flushSync();
    assert.equal(r.got(), 'last line\n');
  });

  it('throws what is not a full pipe', () => {
    const sink = new OrderedFdSink(1, () => {
      throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    });
    assert.throws(() => sink.write('x'), /EPIPE/);
  });
});

describe('the server\'s stdout log', function () {
  this.timeout(30_000);
  // A process that logs `lines` lines, then exits as told: every line must reach its stdout.
  function logThenExit(lines: number, exit: string): string[] {
    const script = `import { createLogger } from './src/server/logger.ts';
      const logger = createLogger('info');
      for (let i = 0; i < ${lines}; i++) logger.info({ i }, 'line');
      ${exit}`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return child.stdout.split('\n').filter((l) => l.startsWith('{'));
  }
  const numbers = (lines: string[]) => lines.map((l) => (JSON.parse(l) as { i?: number }).i).filter((i) => i !== undefined);
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('writes every line, in order, when the process exits less than a second after them', () => {
    assert.deepEqual(numbers(logThenExit(3, 'process.exit(0);')), upTo(3), 'a rest smaller than a chunk');
    assert.deepEqual(numbers(logThenExit(5000, 'process.exit(0);')), upTo(5000), 'many chunks, some still being written');
  });

  it('writes every line when the process dies of an uncaught error', () => {
    assert.deepEqual(numbers(logThenExit(1000, "setImmediate(() => { throw new Error('boom'); });")), upTo(1000));
  });
});
