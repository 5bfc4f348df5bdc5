import { strict as assert } from 'node:assert';
import { loadConfig } from '../src/config';

describe('config', () => {
  it('runs on the embedded default with no settings', () => {
    const config = loadConfig({});
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.port, 2567);
    assert.equal(config.devLogin, true);
    assert.equal(config.feedBatchMs, 250);
  });

  it('turns the dev login off by default with Redis', () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', JWT_SECRET: 'x'.repeat(32) });
    assert.equal(config.devLogin, false);
  });

  it('refuses bad values with a sentence naming the setting', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT must be a whole number/);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be between/);
    assert.throws(() => loadConfig({ DEV_LOGIN: 'maybe' }), /DEV_LOGIN must be true or false/);
    assert.throws(() => loadConfig({ REDIS_URL: 'localhost:6379' }), /REDIS_URL must start with redis:\/\//);
    assert.throws(() => loadConfig({ JWT_SECRET: 'short' }), /at least 32/);
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://h:1' }), /set JWT_SECRET or JWT_PUBLIC_KEY/);
    assert.throws(() => loadConfig({ JWT_ALGORITHM: 'none' }), /JWT_ALGORITHM must be one of/);
    assert.throws(() => loadConfig({ FEED_BATCH_MS: '5001' }), /FEED_BATCH_MS must be between 0 and 5000/);
  });
});
