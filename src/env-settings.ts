/**
 * One setting read from the environment and checked, for src/config.ts's table: whole numbers
 * in a range, durations, flags, choices, origins, public addresses, Redis Cluster nodes and PEM
 * keys. A bad value throws a sentence naming the setting; the server stops at start with it.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type Env = Record<string, string | undefined>;

/** Reads a value as given (never empty: an empty variable is unset), or throws a sentence naming the setting. */
export type Parser<T> = (raw: string, name: string) => T;

/** One setting of the table: its variable, what it means in one line, its value when unset, how a value is read. */
export interface Setting<T> {
  readonly name: string;
  readonly doc: string;
  /** When the variable is unset or empty; a function when it depends on other variables. */
  readonly default: T | ((env: Env) => T);
  readonly parse: Parser<T>;
}

/** The variable, or undefined when it is unset or empty. */
export function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function readSetting<T>(setting: Setting<T>, env: Env): T {
  const raw = text(env, setting.name);
  if (raw !== undefined) return setting.parse(raw, setting.name);
  const { default: fallback } = setting;
  return typeof fallback === 'function' ? (fallback as (env: Env) => T)(env) : fallback;
}

/** Any text, as given. */
export const anyText: Parser<string> = (raw) => raw;

/**
 * Text that `pattern` matches; else the sentence, after the setting's name and before the value
 * given, unless the value is a secret (an error goes to the logs).
 */
export function matching(pattern: RegExp, sentence: string, { secret = false } = {}): Parser<string> {
  return (raw, name) => {
    if (!pattern.test(raw)) throw new Error(`${name} ${sentence}${secret ? '' : `, got ${JSON.stringify(raw)}`}`);
    return raw;
  };
}

export function wholeNumber(min: number, max: number): Parser<number> {
  return (raw, name) => {
    if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
    const value = Number(raw);
    if (value < min || value > max) throw new Error(`${name} must be between ${min} and ${max}, got ${value}`);
    return value;
  };
}

/** A whole number of a unit (seconds, minutes, hours) in [min, max], read as milliseconds. */
export function duration(unitMs: number, min: number, max: number): Parser<number> {
  const count = wholeNumber(min, max);
  return (raw, name) => count(raw, name) * unitMs;
}

export const flag: Parser<boolean> = (raw, name) => {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(raw)}`);
};

export function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return (raw, name) => {
    if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return raw as T;
  };
}

/** A comma-separated list of origins, each exactly `scheme://host[:port]` (what browsers send). */
export const origins: Parser<string[]> = (raw, name) =>
  raw.split(',').map((entry) => {
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

/** One origin, as `origins` checks it. */
export const oneOrigin: Parser<string> = (raw, name) => {
  const listed = origins(raw, name);
  if (listed.length > 1) throw new Error(`${name} takes one origin, got ${listed.length}`);
  return listed[0]!;
};

/** A public address as Colyseus puts it in a seat reservation: `host[:port][/path]`, no scheme. */
const PUBLIC_ADDRESS = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/;

export const publicAddress: Parser<string> = (address, name) => {
  if (!PUBLIC_ADDRESS.test(address)) throw new Error(`${name} takes addresses like node-3.games.example.com, 10.0.0.7:2567 or games.example.com/node-3 (no scheme); ${JSON.stringify(address)} is not one`);
  return address;
};

/** Public addresses, comma-separated, each checked. */
export const publicAddressList: Parser<string[]> = (raw, name) =>
  raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '').map((address) => publicAddress(address, name));

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
function pemText(raw: string, name: string): string {
  if (raw.includes('-----BEGIN ')) return raw.replace(/\\n/g, '\n');
  try {
    return readFileSync(raw, 'utf8');
  } catch {
    throw new Error(`${name} must be a PEM or the path of a file holding one; ${JSON.stringify(raw)} cannot be read`);
  }
}

/** An Ed25519 private key in PKCS#8 PEM, or the path of a file holding it. */
export const ed25519PrivateKey: Parser<string> = (raw, name) => {
  const pem = pemText(raw, name);
  let type: string | undefined;
  try {
    type = createPrivateKey(pem).asymmetricKeyType;
  } catch {
    type = undefined;
  }
  if (type !== 'ed25519') throw new Error(`${name} must be an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519)`);
  return pem;
};

/** Ed25519 public keys in SPKI PEM, one after the other, or the path of a file holding them. */
export const ed25519PublicKeys: Parser<string[]> = (raw, name) => {
  const keys = pemText(raw, name).match(/-----BEGIN PUBLIC KEY-----[^-]+-----END PUBLIC KEY-----/g) ?? [];
  const ed25519 = keys.filter((key) => {
    try {
      return createPublicKey(key).asymmetricKeyType === 'ed25519';
    } catch {
      return false;
    }
  });
  if (keys.length === 0 || ed25519.length !== keys.length) throw new Error(`${name} must hold Ed25519 public keys in SPKI PEM (-----BEGIN PUBLIC KEY-----)`);
  return ed25519;
};
