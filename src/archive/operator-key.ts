import { readFile } from 'node:fs/promises';
import type { ArchiveSettings } from '../config';
import { encryptionKey } from './files';
import { SealingKey } from './seal';

/** The archive's keys from the settings: the signing key (made now when no file is set) and the files' key. */
export async function archiveKeys(settings: ArchiveSettings): Promise<{ key: SealingKey; generated: boolean; encryptionKey: Buffer | undefined }> {
  const key = settings.signingKeyFile === undefined ? SealingKey.generate() : SealingKey.fromPem(await readFile(settings.signingKeyFile, 'utf8'));
  return { key, generated: settings.signingKeyFile === undefined, encryptionKey: settings.encryptionKey === undefined ? undefined : encryptionKey(settings.encryptionKey) };
}
