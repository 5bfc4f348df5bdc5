/**
 * Every setting of the server, from environment variables: one table, SETTINGS, gives each its
 * variable, its value when unset, how a value is read and checked, and what it means in one
 * line. The README's settings table lists the same variables (a test holds them to it). Bad
 * values, and contradictory ones, stop the server at start with a sentence.
 */
import { MAX_LANES } from './dealer/redis/store';
import { GAME_IDS, type GameId } from './protocol/game-ids';
import {
  anyText, duration, ed25519PrivateKey, ed25519PublicKeys, flag, matching, oneOf, oneOrigin, origins, parseClusterNodes, publicAddress, publicAddressList,
  readSetting, text, wholeNumber, type ClusterNode, type Env, type Setting,
} from './env-settings';

/** Lanes of each emission opened on a Redis Cluster when REDIS_SEQUENCE_LANES is not set. */
const CLUSTER_DEFAULT_LANES = 3;

/** The server's settings as read; what each field means is the doc of its entry in SETTINGS. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string | undefined;
  readonly redisClusterNodes: readonly ClusterNode[] | undefined;
  readonly redisWaitReplicas: number;
  readonly redisWaitTimeoutMs: number;
  readonly redisSequenceLanes: number;
  readonly redisPrefix: string;
  readonly redisCommandTimeoutMs: number;
  readonly publicAddress: string | undefined;
  /** Every process's public address, this one's own among them. */
  readonly publicAddresses: readonly string[];
  readonly jwtSecret: string | undefined;
  readonly jwtPublicKey: string | undefined;
  readonly jwtJwksUrl: string | undefined;
  readonly jwtAlgorithm: 'RS256' | 'ES256';
  readonly tokenMaxSeconds: number;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  readonly devLogin: boolean;
  readonly demoBalance: number;
  readonly withdrawalThreshold: number | undefined;
  readonly devLoginPerMinute: number;
  readonly abandonAfterMs: number;
  readonly sweepEveryMs: number;
  readonly operatorToken: string | undefined;
  /** Who holds the players' money: the server's own wallet, or the operator's (docs/integration.md). */
  readonly walletMode: 'internal' | 'seamless';
  readonly walletUrl: string | undefined;
  readonly walletTimeoutMs: number;
  readonly operatorSecret: string | undefined;
  /** How long a launch URL may wait for its one use (docs/server.md, "Launch"). */
  readonly launchTtlSeconds: number;
  /** The operator's sites that may frame the page (its CSP's frame-ancestors). */
  readonly operatorOrigins: readonly string[];
  /** Player protection (docs/responsible-gaming.md). */
  readonly protection: {
    readonly realityCheckMs: number;
    readonly sessionIdleMs: number;
    readonly raiseDelayMs: number;
    readonly demoStakeLimitWeek: number;
  };
  /** The pace of play, the operator's per game (docs/responsible-gaming.md, "Pacing"). */
  readonly pace: {
    readonly unitMs: number;
    readonly stepMs: number;
    readonly byGame: Readonly<Partial<Record<GameId, { readonly unitMs: number; readonly stepMs: number }>>>;
  };
  readonly emissionBlocks: number;
  /** The embedded default's bounds: a demo, not a ledger (docs/operations.md). No effect with Redis. */
  readonly embeddedKeep: { readonly perPlayer: number; readonly total: number };
  readonly maxMessagesPerSecond: number;
  readonly feedRecent: number;
  readonly feedMinPrize: number;
  readonly feedBatchMs: number;
  readonly feedRoomMaxClients: number;
  readonly prizesLeft: boolean;
  readonly watchersMax: number;
  readonly watchRoomMaxClients: number;
  readonly spectatorMaxUnsentBytes: number;
  readonly corsOrigins: readonly string[];
  readonly fairnessOrigin: string | null;
  readonly maxBodyBytes: number;
  readonly trustProxy: number;
  readonly metricsPort: number | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly checkpointSigningKey: string | undefined;
  readonly checkpointPreviousKeys: readonly string[];
  readonly checkpointLogId: string;
  /** The regulator's archive (docs/archive.md). */
  readonly archive: ArchiveSettings;
}

/** The regulator's archive's settings (docs/archive.md, "Settings"). */
export interface ArchiveSettings {
  readonly dir: string | undefined;
  readonly signingKeyFile: string | undefined;
  readonly encryptionKey: string | undefined;
  readonly sealRecords: number;
  readonly sealMs: number;
  readonly onlineMonths: number;
  readonly retentionYears: number;
  readonly coldDir: string | undefined;
}

/** A setting for each field of `T`. */
type Table<T> = { readonly [K in keyof T]: Setting<T[K]> };
/** The fields of Config that group settings of their own. */
type Group = 'protection' | 'pace' | 'embeddedKeep' | 'archive';
type ConfigTable = Table<Omit<Config, Group>> & { readonly [G in Group]: Table<Config[G]> };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY_SECONDS = 86_400;

/** PACE_BY_GAME: `<game>=<unit ms>/<step ms>`, comma-separated, each game known and named once. */
const paceByGame = (raw: string, name: string): Partial<Record<GameId, { unitMs: number; stepMs: number }>> => {
  const byGame: Partial<Record<GameId, { unitMs: number; stepMs: number }>> = {};
  for (const entry of raw.split(',')) {
    const m = /^\s*([a-z0-9-]+)=(\d{1,6})\/(\d{1,4})\s*$/.exec(entry);
    const game = m?.[1] as GameId | undefined;
    if (!m || !GAME_IDS.includes(game!) || byGame[game!] || Number(m[2]) > 600_000 || Number(m[3]) > 5000) {
      throw new Error(`${name} takes <game>=<unit ms>/<step ms>, comma-separated, each of ${GAME_IDS.join(', ')} once (unit ms ≤ 600000, step ms ≤ 5000); ${JSON.stringify(entry)} is not one`);
    }
    byGame[game!] = { unitMs: Number(m[2]), stepMs: Number(m[3]) };
  }
  return byGame;
};

/** Whether a variable naming a Redis is set: the server then keeps its state there. */
const onRedis = (env: Env) => text(env, 'REDIS_URL') !== undefined || text(env, 'REDIS_CLUSTER_NODES') !== undefined;
const onCluster = (env: Env) => text(env, 'REDIS_CLUSTER_NODES') !== undefined;

/**
 * Every setting, in the order they are read (the first bad one is the one reported). The
 * README's settings table says the same at more length.
 */
const SETTINGS: ConfigTable = {
  port: { name: 'PORT', default: 2567, parse: wholeNumber(0, 65535), doc: 'port of HTTP and WebSocket' },
  host: { name: 'HOST', default: '127.0.0.1', parse: anyText, doc: 'interface to listen on' },
  redisUrl: { name: 'REDIS_URL', default: undefined, parse: matching(/^rediss?:\/\//, 'must start with redis:// or rediss://'), doc: 'one Redis holding dealing, wallets, history and rooms; unset (and no cluster nodes): the embedded default, all in memory, nothing kept' },
  redisClusterNodes: { name: 'REDIS_CLUSTER_NODES', default: undefined, parse: parseClusterNodes, doc: "instead of REDIS_URL, a Redis Cluster's seed nodes (host:port,…): purchases and settlements then go one slot per step (docs/dealer.md)" },
  redisWaitReplicas: { name: 'REDIS_WAIT_REPLICAS', default: (env) => (onCluster(env) ? 1 : 0), parse: wholeNumber(0, 16), doc: "replicas that must acknowledge a purchase's writes (WAIT) before it is answered; default 1 on a cluster, 0 on one Redis (docs/scaling.md)" },
  redisWaitTimeoutMs: { name: 'REDIS_WAIT_TIMEOUT_MS', default: 1000, parse: wholeNumber(10, 60_000), doc: 'how long that WAIT may take before the purchase is refused, retryable' },
  // On a cluster, each (game, price) spread over three slots unless told otherwise: losing one
  // master then stops a third of its dealing, not all of it (one Redis has one slot to give).
  redisSequenceLanes: { name: 'REDIS_SEQUENCE_LANES', default: (env) => (onCluster(env) ? CLUSTER_DEFAULT_LANES : 1), parse: wholeNumber(1, MAX_LANES), doc: 'on a Redis Cluster only: the lanes (hash slots) each emission opened from now on deals over (docs/dealer.md, "Lanes")' },
  redisPrefix: { name: 'REDIS_PREFIX', default: 'lottery', parse: anyText, doc: 'prefix of every key this server writes' },
  redisCommandTimeoutMs: { name: 'REDIS_COMMAND_TIMEOUT_MS', default: 5000, parse: wholeNumber(100, 60_000), doc: 'a Redis command not answered within this long fails: the client is refused, retryable' },
  publicAddress: { name: 'PUBLIC_ADDRESS', default: undefined, parse: publicAddress, doc: 'the address other processes send clients to reach this one by (Colyseus publicAddress: host[:port][/path], no scheme)' },
  publicAddresses: { name: 'PUBLIC_ADDRESSES', default: [], parse: publicAddressList, doc: "every process's public address, comma-separated: the page's CSP lets it open a WebSocket to those and nothing else besides its own origin" },
  jwtSecret: { name: 'JWT_SECRET', default: undefined, parse: matching(/^[\s\S]{32,}$/, 'must be at least 32 characters', { secret: true }), doc: 'HS256 secret of player tokens; in embedded mode a random one is made when unset' },
  jwtPublicKey: { name: 'JWT_PUBLIC_KEY', default: undefined, parse: anyText, doc: 'PEM public key (RS256 or ES256) of player tokens signed by the operator' },
  jwtJwksUrl: { name: 'JWT_JWKS_URL', default: undefined, parse: matching(/^https?:\/\//, 'must be an http(s) URL'), doc: "URL of the operator's JSON Web Key Set, instead of a fixed key" },
  jwtAlgorithm: { name: 'JWT_ALGORITHM', default: 'RS256', parse: oneOf(['RS256', 'ES256'] as const), doc: 'algorithm of JWT_PUBLIC_KEY or of the keys of JWT_JWKS_URL' },
  tokenMaxSeconds: { name: 'TOKEN_MAX_SECONDS', default: DAY_SECONDS, parse: wholeNumber(60, 30 * DAY_SECONDS), doc: 'tokens must carry exp, at most this many seconds after their iat (or after now)' },
  jwtIssuer: { name: 'JWT_ISSUER', default: undefined, parse: anyText, doc: 'when set, tokens must carry this issuer (iss)' },
  jwtAudience: { name: 'JWT_AUDIENCE', default: undefined, parse: anyText, doc: 'when set, tokens must carry this audience (aud)' },
  // On by default only where nothing else can sign tokens: embedded, without operator keys.
  devLogin: { name: 'DEV_LOGIN', default: (env) => !onRedis(env) && !text(env, 'JWT_PUBLIC_KEY') && !text(env, 'JWT_JWKS_URL') && text(env, 'WALLET_MODE') !== 'seamless', parse: flag, doc: 'the documented dev login, which creates demo accounts (POST /auth/dev-login)' },
  demoBalance: { name: 'DEMO_BALANCE_CENTS', default: 10_000, parse: wholeNumber(0, 100_000_000), doc: "a demo account's starting balance" },
  withdrawalThreshold: { name: 'WITHDRAWAL_THRESHOLD_CENTS', default: undefined, parse: wholeNumber(0, 1_000_000_000), doc: "the automatic withdrawal threshold: a prize that takes a balance above it makes an event the operator's system reads (GET /admin/events); unset: off" },
  devLoginPerMinute: { name: 'DEV_LOGIN_PER_MINUTE', default: 10, parse: wholeNumber(1, 100_000), doc: 'dev logins one address may make per minute' },
  abandonAfterMs: { name: 'ABANDON_AFTER_SECONDS', default: 900 * SECOND, parse: duration(SECOND, 1, 30 * DAY_SECONDS), doc: 'a unit untouched this long is completed by the server and its prize credited' },
  sweepEveryMs: { name: 'SWEEP_EVERY_SECONDS', default: 30 * SECOND, parse: duration(SECOND, 1, 3600), doc: 'how often the server looks for abandoned units' },
  operatorToken: { name: 'OPERATOR_TOKEN', default: undefined, parse: anyText, doc: 'bearer token of the operator endpoints (/admin/*, and /metrics without METRICS_PORT); unset: they are off' },
  walletMode: { name: 'WALLET_MODE', default: 'internal', parse: oneOf(['internal', 'seamless'] as const), doc: "internal: the server keeps each player's balance (the embedded demo, the funding API); seamless: each stake is debited from, and each prize credited to, the operator's wallet at WALLET_URL (docs/integration.md)" },
  walletUrl: { name: 'WALLET_URL', default: undefined, parse: matching(/^https?:\/\/[^\s]+[^/\s]$/, 'must be an http(s) URL without a trailing slash'), doc: "seamless only: the operator's wallet API; the server POSTs <WALLET_URL>/debit, /credit, /rollback, /balance" },
  walletTimeoutMs: { name: 'WALLET_TIMEOUT_MS', default: 5000, parse: wholeNumber(100, 60_000), doc: 'a wallet call not answered within this long is undecided: a debit is rolled back, a credit sent again' },
  operatorSecret: { name: 'OPERATOR_SECRET', default: undefined, parse: matching(/^[\s\S]{32,}$/, 'must be at least 32 characters', { secret: true }), doc: "the HMAC-SHA256 secret shared with the operator's platform: it signs the wallet calls and the operator's launch requests (docs/integration.md)" },
  launchTtlSeconds: { name: 'LAUNCH_TTL_SECONDS', default: 60, parse: wholeNumber(5, 3600), doc: 'a launch URL (POST /operator/launch) opens the page once, within this many seconds' },
  operatorOrigins: { name: 'OPERATOR_ORIGINS', default: [], parse: origins, doc: "the operator's sites (scheme://host[:port], comma-separated) that may show the page in a frame (CSP frame-ancestors); unset: no site may" },
  protection: {
    realityCheckMs: { name: 'REALITY_CHECK_MINUTES', default: 60 * MINUTE, parse: duration(MINUTE, 1, 24 * 60), doc: "a session's play before its reality check (docs/responsible-gaming.md)" },
    sessionIdleMs: { name: 'SESSION_IDLE_MINUTES', default: 30 * MINUTE, parse: duration(MINUTE, 1, 24 * 60), doc: 'a session ends after this long without a purchase' },
    raiseDelayMs: { name: 'LIMIT_RAISE_DELAY_HOURS', default: 48 * HOUR, parse: duration(HOUR, 48, 8760), doc: "a raise or removal of a limit waits this long (never below the law's 48 h)" },
    demoStakeLimitWeek: { name: 'DEMO_STAKE_LIMIT_WEEK_CENTS', default: 10_000, parse: wholeNumber(100, 100_000_000), doc: "the weekly stake limit the embedded demo's page proposes (the player confirms it)" },
  },
  pace: {
    unitMs: { name: 'PACE_UNIT_MS', default: 2500, parse: wholeNumber(0, 600_000), doc: 'the least time between the starts of two units of a player, in ms (docs/responsible-gaming.md, "Pacing")' },
    stepMs: { name: 'PACE_STEP_MS', default: 160, parse: wholeNumber(0, 5000), doc: "the time between two steps of a reveal on the page when several come at once (AUTO), in ms" },
    byGame: { name: 'PACE_BY_GAME', default: {}, parse: paceByGame, doc: 'per game, instead of those two: <game>=<unit ms>/<step ms>, comma-separated (mine-d-or=4000/200)' },
  },
  emissionBlocks: { name: 'EMISSION_BLOCKS', default: 10, parse: wholeNumber(1, 10_000), doc: 'blocks per emission opened at start for each (game, price) that has none' },
  embeddedKeep: {
    perPlayer: { name: 'EMBEDDED_KEEP_UNITS_PER_PLAYER', default: 1000, parse: wholeNumber(1, 1_000_000), doc: 'embedded default only: settled units kept per player, older ones forgotten' },
    total: { name: 'EMBEDDED_KEEP_UNITS', default: 100_000, parse: wholeNumber(1, 100_000_000), doc: 'embedded default only: settled units kept in all, the oldest forgotten first' },
  },
  maxMessagesPerSecond: { name: 'MAX_MESSAGES_PER_SECOND', default: 50, parse: wholeNumber(1, 10_000), doc: 'messages a client may send per second before it is disconnected' },
  feedRecent: { name: 'FEED_RECENT', default: 20, parse: wholeNumber(0, 1000), doc: 'how many of the last wins a feed spectator gets on joining (recent)' },
  feedMinPrize: { name: 'FEED_MIN_PRIZE_CENTS', default: 1, parse: wholeNumber(1, 100_000_000), doc: 'wins below this amount are not published to the feed' },
  feedBatchMs: { name: 'FEED_BATCH_MS', default: 250, parse: wholeNumber(0, 5000), doc: 'a feed room sends at most one wins message per this many ms, the first win after a quiet interval at once (0: each win at once, alone)' },
  feedRoomMaxClients: { name: 'FEED_ROOM_MAX_CLIENTS', default: 2000, parse: wholeNumber(1, 1_000_000), doc: 'spectators per feed room; a full room is locked and the next joiner gets a new one' },
  prizesLeft: { name: 'PRIZES_LEFT', default: true, parse: flag, doc: 'the live count of prizes left per open block (GET /prizes-left, prizes_left)' },
  watchersMax: { name: 'WATCHERS_MAX', default: 1000, parse: wholeNumber(0, 1_000_000), doc: 'spectators a table open to watchers takes, besides its player, over every watch room' },
  watchRoomMaxClients: { name: 'WATCH_ROOM_MAX_CLIENTS', default: 2000, parse: wholeNumber(1, 1_000_000), doc: "watchers per watch room (a table's relay on one process); a full one is locked and the next watcher gets a new one" },
  spectatorMaxUnsentBytes: { name: 'SPECTATOR_MAX_UNSENT_BYTES', default: 65_536, parse: wholeNumber(1, 64 * 1_048_576), doc: "bytes a spectator's socket may hold unsent: past it, its updates are coalesced until it has caught up (docs/spectators.md)" },
  corsOrigins: { name: 'CORS_ORIGINS', default: [], parse: origins, doc: 'origins (scheme://host[:port], comma-separated) whose pages may call this server besides its own' },
  fairnessOrigin: { name: 'FAIRNESS_ORIGIN', default: null, parse: oneOrigin, doc: "this deployment's public origin, named in recalls (fairness.server) for verify-unit to fetch the published roots; unset: null" },
  maxBodyBytes: { name: 'MAX_BODY_BYTES', default: 16_384, parse: wholeNumber(256, 1_048_576), doc: 'largest request body, in bytes, on every route (matchmaking included)' },
  trustProxy: { name: 'TRUST_PROXY', default: 0, parse: wholeNumber(0, 10), doc: 'proxies in front of this server whose X-Forwarded-For is believed (0: none)' },
  metricsPort: { name: 'METRICS_PORT', default: undefined, parse: wholeNumber(1, 65535), doc: '/metrics on this port of 127.0.0.1 with no token; unset: on PORT with OPERATOR_TOKEN' },
  logLevel: { name: 'LOG_LEVEL', default: 'info', parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const), doc: 'the least severe level logged' },
  checkpointSigningKey: { name: 'CHECKPOINT_SIGNING_KEY', default: undefined, parse: ed25519PrivateKey, doc: "the operator's Ed25519 private key (PKCS#8 PEM, or a file's path) that signs the checkpoints of the log of page roots; unset: made at start (embedded only)" },
  checkpointPreviousKeys: { name: 'CHECKPOINT_PREVIOUS_KEYS', default: [], parse: ed25519PublicKeys, doc: "the Ed25519 public keys (SPKI PEM, or a file's path) that signed this log's checkpoints before a rotation, still published at /fairness/log/key" },
  checkpointLogId: { name: 'CHECKPOINT_LOG_ID', default: 'page-roots', parse: matching(/^[\x21-\x7e]{1,128}$/, 'must be 1–128 printable ASCII characters without spaces'), doc: "the log's name in its checkpoints (1–128 printable ASCII, no space)" },
  archive: {
    dir: { name: 'ARCHIVE_DIR', default: undefined, parse: anyText, doc: "where the regulator's archive is written (docs/archive.md); unset: no writer runs (the outbox still fills)" },
    signingKeyFile: { name: 'ARCHIVE_SIGNING_KEY_FILE', default: undefined, parse: anyText, doc: "the archive's Ed25519 signing key (PKCS#8 PEM); unset: one is made at start, and said so" },
    encryptionKey: { name: 'ARCHIVE_ENCRYPTION_KEY', default: undefined, parse: matching(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (a 32-byte AES-256 key)', { secret: true }), doc: "64 hex digits, the AES-256-GCM key of the archive's files at rest; unset: plain gzip" },
    sealRecords: { name: 'ARCHIVE_SEAL_RECORDS', default: 1000, parse: wholeNumber(1, 1_000_000), doc: 'a seal at most every this many records of a stream' },
    sealMs: { name: 'ARCHIVE_SEAL_SECONDS', default: 10 * SECOND, parse: duration(SECOND, 1, 3600), doc: 'and at least every this long while records come' },
    onlineMonths: { name: 'ARCHIVE_ONLINE_MONTHS', default: 12, parse: wholeNumber(12, 120), doc: 'day files younger than this stay in ARCHIVE_DIR; older ones move to ARCHIVE_COLD_DIR' },
    retentionYears: { name: 'ARCHIVE_RETENTION_YEARS', default: 6, parse: wholeNumber(6, 100), doc: 'nothing is deleted before this age (the tool deletes nothing itself)' },
    coldDir: { name: 'ARCHIVE_COLD_DIR', default: (env) => text(env, 'ARCHIVE_DIR')?.replace(/\/*$/, '-cold'), parse: anyText, doc: 'where day files past the on-line window go; unset: <ARCHIVE_DIR>-cold' },
  },
};

/** A table or a group of it, as walked: settings, and groups of settings. */
interface Entries {
  readonly [field: string]: Setting<unknown> | Entries;
}

const isSetting = (entry: Setting<unknown> | Entries): entry is Setting<unknown> => typeof entry['parse'] === 'function';

/** Each setting of a table read from `env`, in order; a group's as an object of its own. */
function readTable(table: Entries, env: Env): unknown {
  return Object.fromEntries(Object.entries(table).map(([field, entry]) => [field, isSetting(entry) ? readSetting(entry, env) : readTable(entry, env)]));
}

/** Every setting of the table, groups flattened, in order. */
export function everySetting(table: Entries = SETTINGS): Setting<unknown>[] {
  return Object.values(table).flatMap((entry) => (isSetting(entry) ? [entry] : everySetting(entry)));
}

/** Whether the server keeps its state in Redis (one server or a cluster): shared and kept. */
export function usesRedis(config: Pick<Config, 'redisUrl' | 'redisClusterNodes'>): boolean {
  return config.redisUrl !== undefined || config.redisClusterNodes !== undefined;
}

/** The archive's settings alone (the archive's command line reads them without the server's). */
export function archiveSettings(env: Env = process.env): ArchiveSettings {
  return readTable(SETTINGS.archive, env) as ArchiveSettings;
}

/** The settings from `env`, each checked, then checked together. */
export function loadConfig(env: Env = process.env): Config {
  const read = readTable(SETTINGS, env) as Config;
  const config: Config = { ...read, publicAddresses: [...new Set([...(read.publicAddress === undefined ? [] : [read.publicAddress]), ...read.publicAddresses])] };
  const shared = usesRedis(config);
  const keySources = (['JWT_SECRET', 'JWT_PUBLIC_KEY', 'JWT_JWKS_URL'] as const).filter((name) => text(env, name) !== undefined);
  if (keySources.length > 1) {
    throw new Error(`tokens are verified with one key source: set one of JWT_SECRET, JWT_PUBLIC_KEY, JWT_JWKS_URL, not ${keySources.join(' and ')}`);
  }
  if (config.devLogin && (config.jwtPublicKey || config.jwtJwksUrl)) {
    throw new Error('DEV_LOGIN=true signs demo tokens with JWT_SECRET: it cannot be on when tokens come from the operator (JWT_PUBLIC_KEY or JWT_JWKS_URL)');
  }
  if (config.walletMode === 'seamless' && (config.walletUrl === undefined || config.operatorSecret === undefined)) {
    throw new Error('WALLET_MODE=seamless calls the operator\'s wallet: set WALLET_URL and OPERATOR_SECRET');
  }
  if (config.walletMode === 'seamless' && config.devLogin) {
    throw new Error('DEV_LOGIN=true creates demo accounts with a demo balance: it cannot be on with WALLET_MODE=seamless, where the operator signs players in and holds their money');
  }
  if (config.metricsPort !== undefined && config.metricsPort === config.port) {
    throw new Error(`METRICS_PORT must differ from PORT (${config.port})`);
  }
  if (shared && keySources.length === 0) {
    throw new Error('with REDIS_URL or REDIS_CLUSTER_NODES, set JWT_SECRET, JWT_PUBLIC_KEY or JWT_JWKS_URL: tokens must outlive a restart');
  }
  if (config.redisUrl !== undefined && config.redisClusterNodes !== undefined) {
    throw new Error('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  }
  if (config.redisSequenceLanes > 1 && config.redisClusterNodes === undefined) {
    throw new Error('REDIS_SEQUENCE_LANES above 1 spreads dealing over a Redis Cluster\'s slots: it needs REDIS_CLUSTER_NODES');
  }
  if (shared && config.checkpointSigningKey === undefined) {
    throw new Error('with REDIS_URL or REDIS_CLUSTER_NODES, set CHECKPOINT_SIGNING_KEY: every process signs the log’s checkpoints with the one key, which must outlive a restart');
  }
  return config;
}
