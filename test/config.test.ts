import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everySetting, loadConfig } from '../src/config';
import { newCheckpointSigningKey } from '../tools/checkpoint-key';

const CHECKPOINT_KEY = newCheckpointSigningKey();
/** What a server on Redis must be given: a token secret and a checkpoint signing key. */
const SECRETS = { JWT_SECRET: 'x'.repeat(32), CHECKPOINT_SIGNING_KEY: CHECKPOINT_KEY };

/** The variables the README's "## Settings" table names in its first column. */
function readmeSettings(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Settings\n'));
  if (!section) throw new Error('the README has no "## Settings" section');
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

describe('config', () => {
  it('runs on the embedded default with no settings', () => {
    const config = loadConfig({});
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.port, 2567);
    assert.equal(config.devLogin, true);
    assert.equal(config.feedBatchMs, 250);
    assert.deepEqual(config.embeddedKeep, { perPlayer: 1000, total: 100_000 });
  });

  it('turns the dev login off by default with Redis', () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', ...SECRETS });
    assert.equal(config.devLogin, false);
  });

  it('reads a Redis Cluster\'s nodes, waiting for one replica by default there', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002', ...SECRETS });
    assert.deepEqual(config.redisClusterNodes, [{ host: '10.0.0.1', port: 7000 }, { host: 'redis-b', port: 7001 }, { host: '::1', port: 7002 }]);
    assert.equal(config.redisWaitReplicas, 1);
    assert.equal(config.devLogin, false);
    assert.equal(loadConfig({ REDIS_URL: 'redis://h:1', ...SECRETS }).redisWaitReplicas, 0);
    assert.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'h:1' }), /REDIS_CLUSTER_NODES, set JWT_SECRET/);
    assert.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'h', ...SECRETS }), /REDIS_CLUSTER_NODES must list host:port/);
    assert.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'h:1', REDIS_URL: 'redis://h:1', ...SECRETS }), /not both/);
  });

  it('spreads each game and price over REDIS_SEQUENCE_LANES slots on a cluster only, 1 to 64, three unless told', () => {
    const cluster = { REDIS_CLUSTER_NODES: 'h:1', ...SECRETS };
    assert.equal(loadConfig(cluster).redisSequenceLanes, 3);
    assert.equal(loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '1' }).redisSequenceLanes, 1);
    assert.equal(loadConfig({ REDIS_URL: 'redis://h:1', ...SECRETS }).redisSequenceLanes, 1, 'one Redis: one slot');
    assert.equal(loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '3' }).redisSequenceLanes, 3);
    assert.equal(loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '64' }).redisSequenceLanes, 64);
    assert.throws(() => loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '0' }), /REDIS_SEQUENCE_LANES must be between 1 and 64/);
    assert.throws(() => loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '65' }), /REDIS_SEQUENCE_LANES must be between 1 and 64/);
    assert.throws(() => loadConfig({ ...cluster, REDIS_SEQUENCE_LANES: '2.5' }), /REDIS_SEQUENCE_LANES must be a whole number/);
    assert.equal(loadConfig({ REDIS_URL: 'redis://h:1', ...SECRETS, REDIS_SEQUENCE_LANES: '1' }).redisSequenceLanes, 1);
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://h:1', ...SECRETS, REDIS_SEQUENCE_LANES: '3' }), /needs REDIS_CLUSTER_NODES/);
    assert.throws(() => loadConfig({ REDIS_SEQUENCE_LANES: '3' }), /needs REDIS_CLUSTER_NODES/);
  });

  it('refuses bad values with a sentence naming the setting', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT must be a whole number/);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be between/);
    assert.throws(() => loadConfig({ DEV_LOGIN: 'maybe' }), /DEV_LOGIN must be true or false/);
    assert.throws(() => loadConfig({ REDIS_URL: 'localhost:6379' }), /REDIS_URL must start with redis:\/\//);
    assert.throws(() => loadConfig({ JWT_SECRET: 'short' }), /at least 32/);
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://h:1' }), /set JWT_SECRET, JWT_PUBLIC_KEY or JWT_JWKS_URL/);
    assert.throws(() => loadConfig({ JWT_ALGORITHM: 'none' }), /JWT_ALGORITHM must be one of/);
    assert.throws(() => loadConfig({ FEED_BATCH_MS: '5001' }), /FEED_BATCH_MS must be between 0 and 5000/);
    assert.throws(() => loadConfig({ EMBEDDED_KEEP_UNITS: '0' }), /EMBEDDED_KEEP_UNITS must be between 1/);
  });

  it('refuses contradictory settings at start with a sentence', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\\nMFkw\\n-----END PUBLIC KEY-----';
    assert.throws(() => loadConfig({ DEV_LOGIN: 'true', JWT_PUBLIC_KEY: pem }), /DEV_LOGIN=true signs demo tokens with JWT_SECRET/);
    assert.throws(() => loadConfig({ DEV_LOGIN: 'true', JWT_JWKS_URL: 'https://id.example/jwks.json' }), /DEV_LOGIN=true/);
    assert.throws(() => loadConfig({ JWT_PUBLIC_KEY: pem, JWT_JWKS_URL: 'https://id.example/jwks.json' }), /one key source/);
    assert.throws(() => loadConfig({ ...SECRETS, JWT_JWKS_URL: 'https://id.example/jwks.json' }), /one key source/);
    assert.throws(() => loadConfig({ METRICS_PORT: '2567' }), /METRICS_PORT must differ from PORT/);
    assert.throws(() => loadConfig({ CORS_ORIGINS: '*' }), /CORS_ORIGINS must list origins/);
    assert.throws(() => loadConfig({ CORS_ORIGINS: 'https://a.example/page' }), /CORS_ORIGINS must list origins/);
    assert.throws(() => loadConfig({ PUBLIC_ADDRESS: 'wss://node-1.example' }), /PUBLIC_ADDRESS takes addresses like/);
    assert.throws(() => loadConfig({ PUBLIC_ADDRESSES: "node-1.example, evil.example; script-src 'unsafe-inline'" }), /PUBLIC_ADDRESSES takes addresses like/);
  });

  it('reads every process\'s public address, its own among them, each once', () => {
    const config = loadConfig({ PUBLIC_ADDRESS: 'node-2.games.example', PUBLIC_ADDRESSES: 'node-1.games.example, node-2.games.example,10.0.0.7:2567,games.example/node-4' });
    assert.deepEqual(config.publicAddresses, ['node-2.games.example', 'node-1.games.example', '10.0.0.7:2567', 'games.example/node-4']);
    assert.deepEqual(loadConfig({}).publicAddresses, []);
  });

  it("refuses a limit raise delay below the law's 48 hours: 47 refused, 48 accepted", () => {
    assert.throws(() => loadConfig({ LIMIT_RAISE_DELAY_HOURS: '47' }), /LIMIT_RAISE_DELAY_HOURS must be between 48 and/);
    assert.equal(loadConfig({ LIMIT_RAISE_DELAY_HOURS: '48' }).protection.raiseDelayMs, 48 * 3_600_000);
  });

  it('keeps the dev login off by default when tokens come from the operator', () => {
    assert.equal(loadConfig({ JWT_JWKS_URL: 'https://id.example/jwks.json' }).devLogin, false);
  });

  it('reads the allowed origins and the edge limits', () => {
    const config = loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173', MAX_BODY_BYTES: '2048' });
    assert.deepEqual(config.corsOrigins, ['https://a.example', 'http://localhost:5173']);
    assert.equal(config.maxBodyBytes, 2048);
    assert.equal(config.tokenMaxSeconds, 86_400);
  });

  it('reads the public origin recalls name for their published blocks: one origin, or none', () => {
    assert.equal(loadConfig({ FAIRNESS_ORIGIN: 'https://games.example' }).fairnessOrigin, 'https://games.example');
    assert.equal(loadConfig({}).fairnessOrigin, null);
    assert.throws(() => loadConfig({ FAIRNESS_ORIGIN: 'https://a.example, https://b.example' }), /FAIRNESS_ORIGIN takes one origin/);
    assert.throws(() => loadConfig({ FAIRNESS_ORIGIN: 'games.example' }), /FAIRNESS_ORIGIN must list origins/);
  });

  describe('checkpoint signing key', () => {
    it('is unset on the embedded default (the server makes one), and refused unset with Redis', () => {
      assert.equal(loadConfig({}).checkpointSigningKey, undefined);
      assert.throws(() => loadConfig({ REDIS_URL: 'redis://h:1', JWT_SECRET: 'x'.repeat(32) }), /set CHECKPOINT_SIGNING_KEY/);
    });

    it('takes the PEM, with new lines written \\n, or the path of a file holding it', () => {
      assert.equal(loadConfig({ CHECKPOINT_SIGNING_KEY: CHECKPOINT_KEY }).checkpointSigningKey, CHECKPOINT_KEY);
      assert.equal(loadConfig({ CHECKPOINT_SIGNING_KEY: CHECKPOINT_KEY.replace(/\n/g, '\\n') }).checkpointSigningKey, CHECKPOINT_KEY);
      const dir = mkdtempSync(join(tmpdir(), 'checkpoint-key-'));
      try {
        writeFileSync(join(dir, 'key.pem'), CHECKPOINT_KEY);
        assert.equal(loadConfig({ CHECKPOINT_SIGNING_KEY: join(dir, 'key.pem') }).checkpointSigningKey, CHECKPOINT_KEY);
        assert.throws(() => loadConfig({ CHECKPOINT_SIGNING_KEY: join(dir, 'none.pem') }), /cannot be read/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a key that is not an Ed25519 private key', () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      assert.throws(() => loadConfig({ CHECKPOINT_SIGNING_KEY: rsa }), /Ed25519 private key/);
      assert.throws(() => loadConfig({ CHECKPOINT_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }), /Ed25519 private key/);
    });

    it('takes the public keys of before (rotation), each an Ed25519 SPKI PEM', () => {
      const publics = [0, 1].map(() => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
      assert.deepEqual(loadConfig({ CHECKPOINT_PREVIOUS_KEYS: publics.join('') }).checkpointPreviousKeys.map((k) => k.trim()), publics.map((k) => k.trim()));
      assert.deepEqual(loadConfig({}).checkpointPreviousKeys, []);
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
      assert.throws(() => loadConfig({ CHECKPOINT_PREVIOUS_KEYS: rsa }), /Ed25519 public keys/);
    });

    it('names the log page-roots unless told, and refuses a name with spaces', () => {
      assert.equal(loadConfig({}).checkpointLogId, 'page-roots');
      assert.equal(loadConfig({ CHECKPOINT_LOG_ID: 'fdj.example/pages' }).checkpointLogId, 'fdj.example/pages');
      assert.throws(() => loadConfig({ CHECKPOINT_LOG_ID: 'a b' }), /CHECKPOINT_LOG_ID/);
    });
  });

  describe('the settings table', () => {
    it('names each variable once, with a doc line', () => {
      const names = everySetting().map((s) => s.name);
      assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), [], 'variables named twice');
      const undocumented = everySetting().filter((s) => !/^\S.{9,}$/.test(s.doc)).map((s) => s.name);
      assert.deepEqual(undocumented, [], 'settings without a one-line doc of ten characters or more');
    });

    it('is what the README\'s settings table lists, no more, no less', () => {
      const table = new Set(everySetting().map((s) => s.name));
      const readme = new Set(readmeSettings(readFileSync('README.md', 'utf8')));
      assert.deepEqual([...readme].filter((name) => !table.has(name)), [], 'in the README, not in the table');
      assert.deepEqual([...table].filter((name) => !readme.has(name)), [], 'in the table, not in the README');
    });
  });
});
