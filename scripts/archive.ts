/**
 * `npm run archive -- <command>`: the regulator's archive (docs/archive.md).
 *   run                 drains the dealer's archive outbox (REDIS_URL or REDIS_CLUSTER_NODES) into ARCHIVE_DIR until stopped
 *   keygen <file>       writes a new Ed25519 signing key (PKCS#8 PEM, mode 600) and prints its id
 *   verify <dir>        chains, sequence numbers, seals and signatures, the heads seen before
 *                       (--expect); with --books, also reconciles with the wallet journals of
 *                       REDIS_URL (or REDIS_CLUSTER_NODES)
 *   export <dir>        --player <id> | --game <id> | --summary, over --from/--to days
 *   move-cold <dir>     moves day files past the on-line window to the cold directory
 * Settings from the environment (ARCHIVE_*, REDIS_URL or REDIS_CLUSTER_NODES, REDIS_PREFIX:
 * docs/operations.md).
 * Exit codes: 0 ok, 1 problems found, 2 bad command line, 3 failure.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { moveCold } from '../src/archive/retention';
import { dailySummary, selectRecords } from '../src/archive/export';
import { encryptionKey } from '../src/archive/files';
import { archiveLagMs } from '../src/archive/lag';
import { archiveKeys } from '../src/archive/operator-key';
import { bookLines, moneyLines, moneyOnItsWay, moneyRecords, reconcile } from '../src/archive/reconcile';
import { Keyring, SealingKey } from '../src/archive/seal';
import { formatProblem, verifyArchive, type ArchiveHead } from '../src/archive/verify';
import { ArchiveWriter, readManifest } from '../src/archive/writer';
import { archiveSettings, type ArchiveSettings } from '../src/config';
import { isMoneyStream } from '../src/dealer/outbox';
import { RedisStore } from '../src/dealer/redis/store';
import type { RedisClient } from '../src/redis-scripts/loader';
import { connectOnce, reconnectDelay, redisClient, redisClusterTarget, redisUrlTarget } from '../src/server/redis-client';

const USAGE = `usage: npm run archive -- <command> [options]

  run                     drain the archive outbox of REDIS_URL (or REDIS_CLUSTER_NODES) into
                          ARCHIVE_DIR (one writer)
  keygen <file>           write a new Ed25519 signing key (PKCS#8 PEM) to <file>
  verify <dir> [--keyring <file>] [--cold <dir>] [--expect <stream>:<seq>:<hash>]... [--books]
                          check chains, sequence numbers, seals, signatures; print each
                          stream's head; --expect: a head printed by an earlier verify, which
                          the stream must still hold (records cut from its end are found);
                          --books: reconcile the money records with the wallet journals of
                          REDIS_URL (or REDIS_CLUSTER_NODES)
  export <dir> (--player <id> | --game <id> | --summary) [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--cold <dir>]
                          records as JSON lines, or the daily summary per game
  move-cold <dir>         move day files older than ARCHIVE_ONLINE_MONTHS to ARCHIVE_COLD_DIR

ARCHIVE_ENCRYPTION_KEY is needed to read encrypted files.`;

function usage(message: string): never {
  console.error(`archive: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** A drain's Redis command not answered within this long fails (a frozen Redis): the drain is tried again. */
const WRITER_COMMAND_TIMEOUT_MS = 10_000;

/**
 * The dealer's store: one Redis (REDIS_URL), or a Redis Cluster (REDIS_CLUSTER_NODES) with its
 * per-slot protocol. A tool's client tries once (`verify` fails with a sentence); the writer's
 * (`forever`) reconnects for ever, so that it drains again by itself once Redis is back.
 */
async function redisStore(forever = false): Promise<{ store: RedisStore; redis: RedisClient; close: () => void }> {
  const url = process.env['REDIS_URL'];
  const nodes = process.env['REDIS_CLUSTER_NODES'];
  if (!url && !nodes) usage('REDIS_URL or REDIS_CLUSTER_NODES is needed (the dealer\'s Redis)');
  const target = nodes ? redisClusterTarget(nodes, 'REDIS_CLUSTER_NODES') : redisUrlTarget(url!, 'REDIS_URL');
  // A cluster client with no node left would hold a command in its queue until one is back,
  // beyond any timeout: without the queue the drain fails and says so, and is tried again.
  const redis = forever
    ? redisClient(target, { maxRetriesPerRequest: 1, retryStrategy: reconnectDelay, commandTimeout: WRITER_COMMAND_TIMEOUT_MS }, { enableOfflineQueue: false })
    : await connectOnce(target);
  const store = new RedisStore(redis, { prefix: process.env['REDIS_PREFIX'] ?? 'lottery', protocol: nodes ? 'per-slot' : 'one-script' });
  return { store, redis, close: () => redis.disconnect() };
}

/** How often the writer prints its status line. */
const STATUS_EVERY_MS = 60_000;

/**
 * `run`: the writer until SIGTERM or SIGINT (then it drains what is left). It says when its
 * drains start failing (once, not at every retry) and when they go through again, and every
 * minute its lag (`archiveLagMs`) and the records it sealed.
 */
async function runWriter(settings: ArchiveSettings & { readonly dir: string }): Promise<void> {
  const keys = await archiveKeys(settings);
  if (keys.generated) console.warn(`archive: no ARCHIVE_SIGNING_KEY_FILE: sealing with key ${keys.key.id}, made now (its public key is in the keyring; the private one dies with this process)`);
  const { store, redis, close } = await redisStore(true);
  redis.on('error', () => undefined); // Each outage is told once, by the drain it makes fail.
  // Connected before the first drain (a cluster client without its queue would fail it), a bounded wait.
  await Promise.race([new Promise((resolve) => redis.once('ready', resolve)), new Promise((resolve) => setTimeout(resolve, WRITER_COMMAND_TIMEOUT_MS).unref())]);
  const writer = await ArchiveWriter.open({ dir: settings.dir, outbox: store.outbox, key: keys.key, encryptionKey: keys.encryptionKey, sealRecords: settings.sealRecords, now: Date.now });
  let failingSince: number | undefined;
  let sealed = 0;
  const stop = writer.run(
    settings.sealMs,
    (err) => {
      if (failingSince !== undefined) return;
      failingSince = Date.now();
      console.error(`archive: draining failed: ${(err as Error).message}; retrying every ${settings.sealMs / 1000} s (the entries wait in Redis)`);
    },
    (records) => {
      sealed += records;
      if (failingSince === undefined) return;
      console.log(`archive: draining again after ${((Date.now() - failingSince) / 1000).toFixed(1)} s: ${records} records sealed`);
      failingSince = undefined;
    },
  );
  const status = setInterval(() => {
    // Counted now: the lag's answer comes after the count starts again.
    const since = sealed;
    archiveLagMs(store.outbox, Date.now()).then(
      (lag) => console.log(`archive: lag ${(lag / 1000).toFixed(1)} s, ${since} records sealed since the last status`),
      (err: unknown) => console.log(`archive: lag unknown (${(err as Error).message})${failingSince === undefined ? '' : `, draining failing for ${((Date.now() - failingSince) / 1000).toFixed(0)} s`}`),
    );
    sealed = 0;
  }, STATUS_EVERY_MS);
  console.log(`archive: writing ${settings.dir}, key ${keys.key.id}`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clearInterval(status);
  await stop();
  await writer.drainAll();
  close();
}

/** `--expect <stream>:<seq>:<hash>`, as verify prints a head. */
function parseHead(text: string): ArchiveHead {
  const match = /^([a-z][a-z0-9-]*):(0|[1-9][0-9]{0,14}):([0-9a-f]{64})$/.exec(text);
  if (!match) usage(`--expect takes <stream>:<seq>:<hash> (64 hex digits), as verify prints it; got ${JSON.stringify(text)}`);
  return { stream: match[1]!, seq: Number(match[2]), hash: match[3]! };
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        keyring: { type: 'string' },
        cold: { type: 'string' },
        expect: { type: 'string', multiple: true, default: [] },
        books: { type: 'boolean', default: false },
        player: { type: 'string' },
        game: { type: 'string' },
        summary: { type: 'boolean', default: false },
        from: { type: 'string' },
        to: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    usage((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, path] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return;
  }
  const settings = archiveSettings();
  const key = settings.encryptionKey === undefined ? undefined : encryptionKey(settings.encryptionKey);
  switch (command) {
    case 'run': {
      if (!settings.dir) usage('ARCHIVE_DIR is needed');
      await runWriter({ ...settings, dir: settings.dir });
      return;
    }
    case 'keygen': {
      if (!path) usage('keygen needs a file');
      const generated = SealingKey.generate();
      await writeFile(path, generated.pem(), { mode: 0o600, flag: 'wx' });
      console.log(JSON.stringify(generated.published));
      return;
    }
    case 'verify': {
      if (!path) usage('verify needs the archive directory');
      const keyring = values.keyring === undefined ? undefined : Keyring.parse(await readFile(values.keyring, 'utf8'));
      const expect = values.expect.map(parseHead);
      // The chain alone keeps no record; the books read the money ones.
      const verified = await verifyArchive(path, { keyring, encryptionKey: key, coldDir: values.cold, expect, keep: (stream) => values.books && isMoneyStream(stream) });
      const problems = verified.problems.map(formatProblem);
      const counts = [...verified.counts].map(([stream, count]) => `${stream} ${count}`).join(', ');
      if (values.books) {
        const { store, close } = await redisStore();
        try {
          // Entries still in the outbox are archived-to-be, not missing.
          const pending = await moneyOnItsWay(store.outbox, verified.records, await store.journaledPlayers());
          const result = reconcile(moneyLines([...moneyRecords(verified.records), ...pending]), await bookLines(store));
          problems.push(...result.differences.map((d) => `books: ${d}`));
          console.log(`books: ${result.booked} journal lines, ${result.archived} archived (${pending.length} still in the outbox)`);
        } finally {
          close();
        }
      }
      console.log(`${counts} records, ${verified.seals} seals; ${problems.length} problem(s)`);
      // What to keep, and to pass as --expect next time.
      console.log(`heads: ${verified.heads.map((h) => `--expect ${h.stream}:${h.seq}:${h.hash}`).join(' ')}`);
      for (const problem of problems) console.log(problem);
      if (problems.length > 0) process.exitCode = 1;
      return;
    }
    case 'export': {
      if (!path) usage('export needs the archive directory');
      const filter = { player: values.player, game: values.game, from: values.from, to: values.to };
      if (!values.summary && values.player === undefined && values.game === undefined) usage('export needs --player, --game or --summary');
      const verified = await verifyArchive(path, { encryptionKey: key, coldDir: values.cold });
      if (verified.problems.length > 0) console.error(`archive: ${verified.problems.length} problem(s) found: run verify`);
      if (values.summary) {
        for (const row of dailySummary(moneyRecords(verified.records), filter)) console.log(JSON.stringify(row));
      } else {
        for (const records of verified.records.values()) for (const record of selectRecords(records, filter)) console.log(JSON.stringify(record));
      }
      return;
    }
    case 'move-cold': {
      if (!path) usage('move-cold needs the archive directory');
      const cold = values.cold ?? settings.coldDir ?? `${path.replace(/\/+$/, '')}-cold`;
      const result = await moveCold(path, cold, (await readManifest(path)).streams, Date.now(), settings.onlineMonths, settings.retentionYears);
      for (const file of result.moved) console.log(`moved ${file} to ${cold}`);
      for (const file of result.pastRetention) console.log(`past the retention (kept; the operator may delete it): ${file}`);
      return;
    }
    default:
      usage(`no command ${command}`);
  }
}

main().catch((err: unknown) => {
  console.error(`archive: ${String((err as Error)?.message ?? err)}`);
  process.exitCode = 3;
});
