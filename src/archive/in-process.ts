import type { ArchiveSettings } from '../config';
import type { ArchiveOutbox } from '../dealer/outbox';
import { archiveKeys } from './operator-key';
import { ArchiveWriter } from './writer';

/**
 * The embedded default's writer, in the server's own process (its outbox is in that memory):
 * drains every ARCHIVE_SEAL_SECONDS; the stop drains what is left. With Redis the writer is a
 * process of its own (`npm run archive -- run`).
 */
export async function startArchiveWriter(
  settings: ArchiveSettings & { readonly dir: string },
  outbox: ArchiveOutbox,
  log: { info(line: string): void; warn(line: string): void; error(err: unknown, line: string): void },
): Promise<() => Promise<void>> {
  const keys = await archiveKeys(settings);
  if (keys.generated) log.warn(`archive: no ARCHIVE_SIGNING_KEY_FILE: sealing with key ${keys.key.id}, made at this start (its public key is kept in the keyring, GET /archive/key)`);
  const writer = await ArchiveWriter.open({ dir: settings.dir, outbox, key: keys.key, encryptionKey: keys.encryptionKey, sealRecords: settings.sealRecords, now: Date.now });
  const stop = writer.run(settings.sealMs, (err) => log.error(err, 'archive writer failed; it retries'));
  log.info(`archive: writing ${settings.dir} (key ${keys.key.id})`);
  return async () => {
    await stop();
    await writer.drainAll();
  };
}
