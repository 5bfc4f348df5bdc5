import { strict as assert } from 'node:assert';
import { runScript } from './run-script';

describe('npm run cluster', function () {
  this.timeout(30_000);

  it('refuses bad options with exit 2, the flag named and the usage, before it starts anything', async () => {
    const [tooMany, noRoom, unknown] = await Promise.all([
      runScript('start-cluster', ['--processes', '65']),
      runScript('start-cluster', ['--processes', '3', '--base-port', '65534']),
      runScript('start-cluster', ['--processes=2', '--redis']),
    ]);
    for (const run of [tooMany, noRoom, unknown]) {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /usage: npm run cluster -- /);
      assert.equal(run.stdout, '', 'nothing started');
    }
    assert.match(tooMany.stderr, /^--processes must be between 1 and 64, got 65/);
    assert.match(noRoom.stderr, /^--base-port 65534 leaves no room for 3 ports/);
    assert.match(unknown.stderr, /^unknown option --redis/);
  });
});
