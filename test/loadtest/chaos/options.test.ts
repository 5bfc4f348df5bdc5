import { strict as assert } from 'node:assert';
import { parseChaosOptions } from '../../../loadtest/chaos/options';

describe('chaos options', () => {
  const drawn = () => 99;

  it('takes minutes, seed and weights, and draws a seed when none is given', () => {
    const o = parseChaosOptions(['--minutes', '2.5', '--seed=7', '--weights', 'kill-redis=3,cut-clients=0'], drawn);
    assert.equal(o.minutes, 2.5);
    assert.equal(o.seed, 7);
    assert.deepEqual(o.weights, { 'kill-server': 1, 'kill-redis': 3, 'freeze-redis': 1, 'cut-clients': 0, 'kill-writer': 1 });
    assert.equal(parseChaosOptions([], drawn).seed, 99);
  });

  it('runs on one redis-server by default, on a Redis Cluster with --redis-cluster', () => {
    assert.equal(parseChaosOptions([], drawn).redisCluster, false);
    assert.equal(parseChaosOptions(['--redis-cluster'], drawn).redisCluster, true);
  });

  it('puts no fixed fault back unless a negative control is named', () => {
    assert.equal(parseChaosOptions([], drawn).negativeControl, null);
    assert.equal(parseChaosOptions(['--negative-control', 'kept-room-list-failure'], drawn).negativeControl, 'kept-room-list-failure');
    assert.throws(() => parseChaosOptions(['--negative-control', 'everything'], drawn), /takes one of kept-room-list-failure/);
  });

  it('refuses what is out of bounds or unknown, with a sentence', () => {
    assert.throws(() => parseChaosOptions(['--minutes', '500'], drawn), /between 0.1 and 180/);
    assert.throws(() => parseChaosOptions(['--freeze-ms', '9000-4000'], drawn), /MIN-MAX/);
    assert.throws(() => parseChaosOptions(['--weights', 'reboot=1'], drawn), /KIND=W/);
    assert.throws(() => parseChaosOptions(['--weights', 'kill-server=0,kill-redis=0,freeze-redis=0,cut-clients=0,kill-writer=0'], drawn), /at least one kind/);
    assert.throws(() => parseChaosOptions(['--endpoint', 'http://10.0.0.1'], drawn), /unknown option/);
  });
});
