import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS, parseOptions } from '../../loadtest/options';
import { UsageError } from '../../tools/command-line';
import { formatReport, writeReport, type Report } from '../../loadtest/report';
import { runLoadtest } from '../../loadtest/run';

/**
 * The harness end to end, small and short: 5 players and 4 spectators (2 on the feed, 2 watching
 * a table) for 3 s against an embedded server process it starts itself, then the echo baseline;
 * the books must come out exact and the report must have every field the issue asks for.
 */

/** The `efficiency` block: every figure present, positive where it must be, the ratio game ÷ echo. */
function assertEfficiency(report: Report): void {
  const { game, echo, ratio } = report.efficiency;
  assert.ok(echo && ratio, 'the echo baseline ran');
  for (const [name, e, phase] of [['game', game, report.run], ['echo', echo, report.baseline.echo!]] as const) {
    const facts = JSON.stringify({ name, e });
    assert.equal(e.unitsBought, phase.throughput.unitsBought, facts);
    assert.ok(e.unitsBought > 0 && e.serverCpuMs > 0 && e.cpuMsPerUnit > 0 && e.cpuMsPerRequest > 0, facts);
    assert.ok(e.requestsPerUnit >= 1, `a unit takes a buy and at least one act: ${facts}`);
    assert.ok(Math.abs(e.cpuMsPerUnit / e.cpuMsPerRequest - e.requestsPerUnit) < 0.05 * e.requestsPerUnit, `CPU a unit = CPU a request × requests a unit: ${facts}`);
    assert.ok(e.messagesSentPerUnit >= e.requestsPerUnit && e.messagesReceivedPerUnit > e.messagesSentPerUnit, facts);
    // Counted when the SDK uses the harness's `ws` clients; not in a process that loaded the SDK before (test/loadtest/node-websocket.test.ts counts them).
    if (e.bytesSentPerUnit !== null) assert.ok(e.bytesSentPerUnit > 0 && e.bytesReceivedPerUnit! > e.bytesSentPerUnit, `the server sends more than it is sent: ${facts}`);
    else assert.equal(e.bytesReceivedPerUnit, null, facts);
    assert.ok(e.harnessCpuMsPerUnit > 0, facts);
    // The sockets' system calls are part of the cost, never all of it.
    assert.ok(e.systemCpuMsPerUnit >= 0 && e.systemCpuMsPerUnit < e.cpuMsPerUnit, `the kernel's share of the CPU: ${facts}`);
    assert.equal(typeof e.rssGrowthMBPer1000Units, 'number', facts);
  }
  assert.ok(Math.abs(ratio.cpuMsPerUnit - game.cpuMsPerUnit / echo.cpuMsPerUnit) < 0.001, JSON.stringify(report.efficiency));
  assert.ok(Math.abs(ratio.cpuMsPerRequest - game.cpuMsPerRequest / echo.cpuMsPerRequest) < 0.001, JSON.stringify(report.efficiency));
}

/**
 * Five players at think 0 for 3 s: a fast machine sells each ~1,000 units, the embedded
 * store's default bound per player, whose oldest units the books would then find forgotten.
 */
const SMALL_RUN = ['--players', '5', '--spectators', '4', '--duration', '3', '--warmup', '0', '--echo-duration', '1', '--drain', '10', '--quiet', '--server-env', 'EMBEDDED_KEEP_UNITS_PER_PLAYER=1000000'];

describe('load-test harness', function () {
  this.timeout(120_000);
  let report: Report;
  const dir = mkdtempSync(join(tmpdir(), 'loadtest-'));

  before(async () => {
    const options = parseOptions(SMALL_RUN);
    const lines: string[] = [];
    report = await runLoadtest(options, { log: (line) => lines.push(line) });
    if (!report.ok) console.error(formatReport(report, undefined), '\n', lines.join('\n'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('plays units against a server process it started, and checks the books exactly', () => {
    assert.equal(report.ok, true, JSON.stringify({ failures: report.failures, books: report.books.problems }));
    assert.equal(report.books.ok, true);
    assert.ok('checked' in report.books);
    const { checked } = report.books as Extract<Report['books'], { checked: unknown }>;
    assert.equal(checked.players, 5);
    assert.ok(checked.units > 0 && checked.unitsFinished === checked.units, 'every unit bought was finished by the drain');
    assert.equal(checked.recallsRescored, checked.units, 'every finished unit re-scored by its game rules');
    assert.ok(checked.blocks >= 1);
  });

  it('reports throughput, latency percentiles, errors and each server process', () => {
    const { run } = report;
    assert.equal(run.players.connected, 5);
    assert.ok(run.throughput.unitsPerSecond > 0);
    assert.ok(run.throughput.messagesPerSecond > run.throughput.unitsPerSecond);
    const l = run.latency.actionToPatch;
    assert.ok(l.count > 0 && l.p50 > 0 && l.p50 <= l.p95 && l.p95 <= l.p99 && l.p99 <= l.max, JSON.stringify(l));
    assert.equal(l.count, run.latency.buy.count + run.latency.act.count);
    assert.deepEqual(run.spectators, { requested: 4, connected: 4, feed: 2, watchers: 2, watchedTables: 1, listedTables: 1 });
    assert.ok(run.spectatorDelays.feedWinsReceived > 0 && run.spectatorDelays.feed.count > 0, 'feed spectators got wins, timed against the players');
    assert.ok(run.spectatorDelays.watch.count > 0, 'watchers got the steps, timed against the player');
    assert.equal(run.spectatorDelays.feedSpectatorsServed, run.spectators.feed, 'every feed spectator got wins');
    assert.equal(run.spectatorDelays.watchersServed, run.spectators.watchers, 'every watcher got steps');
    assert.deepEqual(Object.keys(run.spectatorDelays.feed), ['count', 'p50', 'p95', 'p99', 'max', 'mean']);
    assert.equal(typeof run.errors.total, 'number');
    assert.equal(report.processes.length, 1);
    const [server] = report.processes;
    assert.equal(server!.name, 'server-1');
    assert.ok(server!.pid > 0 && server!.cpuAvgPercent > 0 && server!.rssMaxMB > 0, JSON.stringify(server));
  });

  it('runs the echo baseline and reports the ratio to it', () => {
    const { echo, ratio } = report.baseline;
    assert.ok(echo, report.baseline.note);
    assert.ok(echo.throughput.unitsPerSecond > 0 && echo.latency.actionToPatch.count > 0);
    assert.ok(ratio && ratio.unitsPerSecond > 0 && ratio.p99 > 0, JSON.stringify(ratio));
  });

  it('reports what a unit costs the game server and the echo, and their ratio', () => {
    assertEfficiency(report);
  });

  it('writes the report as JSON and formats it for a reader', () => {
    const file = join(dir, 'report.json');
    writeReport(report, file);
    assert.ok(existsSync(file));
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), JSON.parse(JSON.stringify(report)));
    const text = formatReport(report, file);
    assert.match(text, /^load test PASSED/);
    assert.match(text, /books EXACT/);
    assert.match(text, /ratio to echo/);
    assert.match(text, /game ÷ echo: CPU a unit ×[\d.]+, CPU a request ×[\d.]+/);
  });

  it('refuses non-loopback endpoints and unbounded options', () => {
    assert.throws(() => parseOptions(['--endpoint', 'http://10.0.0.1:2567']), UsageError);
    assert.throws(() => parseOptions(['--endpoint', 'http://example.com']), UsageError);
    assert.deepEqual(parseOptions(['--endpoint', 'ws://localhost:2567']).endpoints, ['http://localhost:2567']);
    assert.throws(() => parseOptions(['--processes', '3']), /needs --redis/);
    assert.throws(() => parseOptions(['--duration', '100000']), UsageError);
    assert.equal(parseOptions([]).players, DEFAULTS.players);
    assert.throws(() => parseOptions(['--profile-heap']), /goes with --profile DIR/);
    assert.equal(parseOptions(['--profile', 'p', '--profile-heap']).profileKind, 'heap');
    assert.equal(parseOptions(['--profile', 'p']).profileKind, 'cpu');
  });
});

describe('load-test harness on worker threads', function () {
  this.timeout(120_000);
  let report: Report;

  before(async () => {
    // Its server logs only warnings: it is found ready by its /ready, not by a line in its log.
    const options = parseOptions([...SMALL_RUN, '--workers', '2', '--server-env', 'LOG_LEVEL=warn']);
    const lines: string[] = [];
    report = await runLoadtest(options, { log: (line) => lines.push(line) });
    if (!report.ok) console.error(formatReport(report, undefined), '\n', lines.join('\n'));
  });

  it('drives the players and spectators from two threads and checks the books over all of them', () => {
    assert.equal(report.ok, true, JSON.stringify({ failures: report.failures, books: report.books.problems }));
    assert.ok('checked' in report.books);
    const { checked } = report.books as Extract<Report['books'], { checked: unknown }>;
    assert.equal(checked.players, 5, 'the books hold the players of both threads');
    assert.ok(checked.units > 0 && checked.unitsFinished === checked.units && checked.recallsRescored === checked.units);
    assert.equal(report.run.players.connected, 5);
    assert.deepEqual(report.run.spectators, { requested: 4, connected: 4, feed: 2, watchers: 2, watchedTables: 1, listedTables: 1 });
  });

  it('starts a server that logs nothing at info: ready when its /ready says so', () => {
    assert.deepEqual(report.failures, []);
    assert.equal(report.processes.length, 1);
  });

  it('merges what each thread measured', () => {
    const { run } = report;
    const l = run.latency.actionToPatch;
    assert.ok(l.count > 0 && l.p50 <= l.p99 && l.p99 <= l.max, JSON.stringify(l));
    assert.equal(l.count, run.latency.buy.count + run.latency.act.count);
    assert.ok(run.throughput.unitsBought > 0 && run.traffic.requests >= run.throughput.unitsBought);
    assert.ok(run.spectatorDelays.feedWinsReceived > 0 && run.spectatorDelays.feed.count > 0 && run.spectatorDelays.watch.count > 0);
  });

  it('reports the efficiency of the game server and the echo, and their ratio', () => {
    assertEfficiency(report);
  });

  it('takes at most 16 worker threads', () => {
    assert.equal(parseOptions([]).workers, 1);
    assert.throws(() => parseOptions(['--workers', '0']), UsageError);
    assert.throws(() => parseOptions(['--workers', '17']), UsageError);
  });
});
