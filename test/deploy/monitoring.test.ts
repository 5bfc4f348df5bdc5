import { strict as assert } from 'node:assert';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

const OPERATOR = 'operator-token-for-the-monitoring-test';
const DASHBOARD = new URL('../../deploy/grafana/lottery-dashboard.json', import.meta.url);
const ALERTS = new URL('../../deploy/prometheus/lottery-alerts.yml', import.meta.url);

/** The server's metric names a query names (`lottery_…`, a histogram's series under its own name). */
function namesIn(query: string): string[] {
  return [...query.matchAll(/\blottery_[a-z0-9_]+/g)].map(([name]) => name.replace(/_(bucket|sum|count)$/, ''));
}

/** Every metric the server declares, from the `# TYPE` lines of its /metrics. */
async function exported(server: RunningServer): Promise<Set<string>> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${OPERATOR}` } });
  assert.equal(res.status, 200);
  return new Set([...(await res.text()).matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name!));
}

describe('the monitoring shipped in deploy/', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let names: Set<string>;

  before(async () => {
    // On the operator's wallet (seamless; no operator answers, none is called): its metrics too.
    server = await startTestServer({
      OPERATOR_TOKEN: OPERATOR, ARCHIVE_DIR: await mkdtemp(join(tmpdir(), 'monitoring-archive-')),
      WALLET_MODE: 'seamless', WALLET_URL: 'http://127.0.0.1:9/wallet', OPERATOR_SECRET: 'operator-secret-for-the-monitoring-test-000000',
    });
    names = await exported(server);
  });
  after(async () => {
    await server.stop();
  });

  it('draws in the Grafana dashboard only metrics the server exports', async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    assert.ok(dashboard.panels.length >= 10);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        assert.ok(namesIn(expr).length > 0, `${panel.title}: ${expr} names no metric of the server`);
        for (const name of namesIn(expr)) assert.ok(names.has(name), `${panel.title}: ${name} is not exported`);
      }
    }
  });

  it('alerts only on metrics the server exports', async () => {
    const rules = [...(await readFile(ALERTS, 'utf8')).matchAll(/^\s+expr: (.+)$/gm)].map(([, expr]) => expr!);
    assert.ok(rules.length >= 10);
    for (const expr of rules) for (const name of namesIn(expr)) assert.ok(names.has(name), `${expr}: ${name} is not exported`);
  });

  it('finds a name the server does not export', () => {
    assert.deepEqual(namesIn('rate(lottery_units_sold_total[5m]) / lottery_no_such_metric_bucket'), ['lottery_units_sold_total', 'lottery_no_such_metric']);
    assert.equal(names.has('lottery_no_such_metric'), false);
  });
});
