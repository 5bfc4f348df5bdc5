import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveSettings } from '../../src/config';
import { startArchiveWriter } from '../../src/archive/in-process';
import { archiveKeys } from '../../src/archive/operator-key';
import { SealingKey } from '../../src/archive/seal';
import { MemoryOutbox, type ArchiveOutbox } from '../../src/dealer/outbox';
import { tempDir } from './support/archive-fixture';

describe("the archive's keys and its writer in the server's process", () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  const settings = (more: Partial<ArchiveSettings> = {}): ArchiveSettings & { dir: string } => ({
    dir,
    signingKeyFile: undefined,
    encryptionKey: undefined,
    sealRecords: 5,
    sealMs: 10,
    onlineMonths: 3,
    retentionYears: 6,
    coldDir: undefined,
    ...more,
  });

  it('signs with the key of the file named, and says it made none; the files unencrypted with no key', async () => {
    const key = SealingKey.generate();
    const file = join(dir, 'signing.pem');
    await writeFile(file, key.pem());
    const keys = await archiveKeys(settings({ signingKeyFile: file }));
    assert.equal(keys.key.id, key.id);
    assert.equal(keys.generated, false);
    assert.equal(keys.encryptionKey, undefined);
  });

  it('makes a signing key when no file is named, and says so; encrypts with the key given', async () => {
    const keys = await archiveKeys(settings({ encryptionKey: '33'.repeat(32) }));
    assert.equal(keys.generated, true);
    assert.match(keys.key.id, /^[0-9a-f]{16}$/);
    assert.deepEqual(keys.encryptionKey, Buffer.from('33'.repeat(32), 'hex'));
  });

  function recordingLog() {
    const lines: string[] = [];
    return { lines, log: { info: (l: string) => lines.push(`info ${l}`), warn: (l: string) => lines.push(`warn ${l}`), error: (_err: unknown, l: string) => lines.push(`error ${l}`) } };
  }

  it('warns that it seals with a key made at this start, and names the directory and the key', async () => {
    const { lines, log } = recordingLog();
    const stop = await startArchiveWriter(settings(), new MemoryOutbox(), log);
    await stop();
    const id = /key ([0-9a-f]{16})/.exec(lines.at(-1)!)?.[1];
    assert.deepEqual(lines, [
      `warn archive: no ARCHIVE_SIGNING_KEY_FILE: sealing with key ${id}, made at this start (its public key is kept in the keyring, GET /archive/key)`,
      `info archive: writing ${dir} (key ${id})`,
    ]);
  });

  it('does not warn with a key file, and logs a failed drain, which it retries', async () => {
    const file = join(dir, 'signing.pem');
    await writeFile(file, SealingKey.generate().pem());
    const { lines, log } = recordingLog();
    let reads = 0;
    const failing: ArchiveOutbox = Object.assign(new MemoryOutbox(), {
      read: async () => {
        reads++;
        throw new Error('outbox away');
      },
    });
    const stop = await startArchiveWriter(settings({ signingKeyFile: file }), failing, log);
    while (reads < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await stop().catch(() => undefined);
    assert.ok(!lines.some((l) => l.startsWith('warn')), lines.join('\n'));
    assert.ok(lines.includes('error archive writer failed; it retries'), lines.join('\n'));
  });
});
