import { generateKeyPairSync } from 'node:crypto';

/**
 * A fresh Ed25519 private key (PKCS#8 PEM) for CHECKPOINT_SIGNING_KEY, for servers on a Redis
 * that nothing keeps (tests, demos): every process of one deployment must be given the same one.
 */
export function newCheckpointSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
