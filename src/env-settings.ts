/**
 * One setting read from the environment and checked, for src/config.ts: whole numbers in a
 * range, flags, choices, origins, public addresses, Redis Cluster nodes and PEM keys. A bad
 * value throws a sentence naming the setting; the server stops at start with it.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type Env = Record<string, string | undefined>;

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new Error(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

export function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

export function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A comma-separated list of origins, each exactly `scheme://host[:port]` (what browsers send). */
export function origins(env: Env, name: string): string[] {
  const raw = text(env, name);
  if (raw === undefined) return [];
  return raw.split(',').map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`${name} must list origins like https://games.example.com, separated by commas; ${JSON.stringify(origin)} is not one`);
    }
    return origin;
  });
}

/** At most one origin, as `origins` checks it. */
export function oneOrigin(env: Env, name: string): string | null {
  const listed = origins(env, name);
  if (listed.length > 1) throw new Error(`${name} takes one origin, got ${listed.length}`);
  return listed[0] ?? null;
}

/** A public address as Colyseus puts it in a seat reservation: `host[:port][/path]`, no scheme. */
const PUBLIC_ADDRESS = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/;

function publicAddress(name: string, address: string): string {
  if (!PUBLIC_ADDRESS.test(address)) throw new Error(`${name} takes addresses like node-3.games.example.com, 10.0.0.7:2567 or games.example.com/node-3 (no scheme); ${JSON.stringify(address)} is not one`);
  return address;
}

/** PUBLIC_ADDRESS and PUBLIC_ADDRESSES (comma-separated), checked, each once. */
export function publicAddresses(env: Env): string[] {
  const own = text(env, 'PUBLIC_ADDRESS');
  const listed = (text(env, 'PUBLIC_ADDRESSES') ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  return [...new Set([...(own === undefined ? [] : [publicAddress('PUBLIC_ADDRESS', own)]), ...listed.map((a) => publicAddress('PUBLIC_ADDRESSES', a))])];
}

export interface ClusterNode {
  readonly host: string;
  readonly port: number;
}

/**
 * A Redis Cluster's nodes from `host:port,host:port,…` (REDIS_CLUSTER_NODES, and the operator
 * scripts' --redis-cluster); `name` is the setting the error message names.
 */
export function parseClusterNodes(raw: string, name = 'REDIS_CLUSTER_NODES'): ClusterNode[] {
  return raw.split(',').map((entry) => {
    const m = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(entry.trim());
    const port = Number(m?.[2]);
    if (!m || port < 1 || port > 65535) {
      throw new Error(`${name} must list host:port entries separated by commas; ${JSON.stringify(entry)} is not one`);
    }
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

/** A PEM setting: the PEM itself (`\\n` read as a new line), or the path of a file holding it. */
function pemText(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  if (raw.includes('-----BEGIN ')) return raw.replace(/\\n/g, '\n');
  try {
    return readFileSync(raw, 'utf8');
  } catch {
    throw new Error(`${name} must be a PEM or the path of a file holding one; ${JSON.stringify(raw)} cannot be read`);
  }
}

export function signingKey(env: Env): string | undefined {
  const pem = pemText(env, 'CHECKPOINT_SIGNING_KEY');
  if (pem === undefined) return undefined;
  let type: string | undefined;
  try {
    type = createPrivateKey(pem).asymmetricKeyType;
  } catch {
    type = undefined;
  }
  if (type !== 'ed25519') throw new Error('CHECKPOINT_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519)');
  return pem;
}

export function previousKeys(env: Env): string[] {
  const pem = pemText(env, 'CHECKPOINT_PREVIOUS_KEYS');
  if (pem === undefined) return [];
  const keys = pem.match(/-----BEGIN PUBLIC KEY-----[^-]+-----END PUBLIC KEY-----/g) ?? [];
  const ed25519 = keys.filter((key) => {
    try {
      return createPublicKey(key).asymmetricKeyType === 'ed25519';
    } catch {
      return false;
    }
  });
  if (keys.length === 0 || ed25519.length !== keys.length) throw new Error('CHECKPOINT_PREVIOUS_KEYS must hold Ed25519 public keys in SPKI PEM (-----BEGIN PUBLIC KEY-----)');
  return ed25519;
}
