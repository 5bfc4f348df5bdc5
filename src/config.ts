/**
 * Every setting of the server, from environment variables. The README's settings table is
 * this file in prose: keep them in step. Bad values stop the server at start with a sentence.
 */
import { MAX_LANES } from './dealer/redis/store';
import { bool, int, oneOf, oneOrigin, origins, parseClusterNodes, previousKeys, publicAddresses, signingKey, text, type ClusterNode, type Env } from './env-settings';

/** Lanes of each emission opened on a Redis Cluster when REDIS_SEQUENCE_LANES is not set. */
export const CLUSTER_DEFAULT_LANES = 3;

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Unset (and no cluster nodes): the embedded default, everything in memory, nothing kept. */
  readonly redisUrl: string | undefined;
  /**
   * A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES=host:port,…), instead of REDIS_URL:
   * purchases and settlements then go one slot per step (docs/dealer.md).
   */
  readonly redisClusterNodes: readonly ClusterNode[] | undefined;
  /**
   * Replicas that must acknowledge a purchase's writes before it is answered (WAIT); default 1
   * on a cluster, 0 on one Redis (docs/scaling.md).
   */
  readonly redisWaitReplicas: number;
  /** How long that WAIT may take before the purchase is refused, retryable. */
  readonly redisWaitTimeoutMs: number;
  /**
   * Lanes (hash slots) each emission opened from now on deals over, on a Redis Cluster only
   * (docs/dealer.md, "Lanes"): one game and price then deals on up to this many masters.
   */
  readonly redisSequenceLanes: number;
  readonly redisPrefix: string;
  /** A Redis command not answered within this long fails (the client is refused, retryable). */
  readonly redisCommandTimeoutMs: number;
  /** Address other processes and clients use to reach this one (Colyseus `publicAddress`). */
  readonly publicAddress: string | undefined;
  /**
   * Every process's public address in the deployment (`PUBLIC_ADDRESSES`, with this one's own):
   * the page's CSP lets it open a WebSocket to those and nothing else besides its own origin.
   */
  readonly publicAddresses: readonly string[];
  /** HS256 secret of player tokens; in embedded mode a random one is made when unset. */
  readonly jwtSecret: string | undefined;
  /** PEM public key (RS256/ES256) of player tokens signed by the operator. */
  readonly jwtPublicKey: string | undefined;
  /** URL of the operator's JSON Web Key Set (jose's remote key set), instead of a fixed key. */
  readonly jwtJwksUrl: string | undefined;
  /** Algorithm of JWT_PUBLIC_KEY or of the keys of JWT_JWKS_URL. */
  readonly jwtAlgorithm: 'RS256' | 'ES256';
  /** Tokens must carry `exp`, at most this many seconds after their `iat` (or after now). */
  readonly tokenMaxSeconds: number;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  /** The documented dev login that creates demo accounts (on by default in embedded mode). */
  readonly devLogin: boolean;
  readonly demoBalance: number;
  /**
   * The automatic withdrawal threshold (cents): a prize that takes a balance above it makes an
   * event the operator's system reads (`GET /admin/events`) to pay the excess out. Unset: off.
   */
  readonly withdrawalThreshold: number | undefined;
  /** Dev logins one address may make per minute. */
  readonly devLoginPerMinute: number;
  /** A unit untouched this long is completed by the server and its prize credited. */
  readonly abandonAfterMs: number;
  readonly sweepEveryMs: number;
  /** Player protection (docs/responsible-gaming.md). */
  readonly protection: {
    /** REALITY_CHECK_MINUTES: a session's play before its reality check. */
    readonly realityCheckMs: number;
    /** SESSION_IDLE_MINUTES: a session ends after this long without a purchase. */
    readonly sessionIdleMs: number;
    /** LIMIT_RAISE_DELAY_HOURS: a raise or removal of a limit waits this long (never below 48 h). */
    readonly raiseDelayMs: number;
    /** DEMO_STAKE_LIMIT_WEEK_CENTS: the weekly stake limit the embedded demo's page proposes (the player confirms it). */
    readonly demoStakeLimitWeek: number;
  };
  /** Bearer token of the operator endpoints (`/admin/*`); unset: they are off. */
  readonly operatorToken: string | undefined;
  /** Blocks per emission opened at start for each (game, price) that has none. */
  readonly emissionBlocks: number;
  /**
   * The embedded default keeps this many settled units per player, and in all; older settled
   * units are forgotten (a demo, not a ledger: docs/operations.md). No effect with Redis.
   */
  readonly embeddedKeep: { readonly perPlayer: number; readonly total: number };
  /** Messages a client may send per second before it is disconnected. */
  readonly maxMessagesPerSecond: number;
  /** How many of the last wins a feed spectator gets on joining (`recent`). */
  readonly feedRecent: number;
  /** Wins below this amount (cents) are not published to the feed. */
  readonly feedMinPrize: number;
  /**
   * A feed room sends at most one `wins` message per this many ms (the first win after a quiet
   * interval at once, the others gathered to the interval's end): one frame per spectator per
   * interval, however many wins. 0: each win at once, in a message of its own.
   */
  readonly feedBatchMs: number;
  /** Spectators per feed room; a full room is locked and the next joiner gets a new one. */
  readonly feedRoomMaxClients: number;
  /** The live count of prizes left per open block (`GET /prizes-left`, `prizes_left`). */
  readonly prizesLeft: boolean;
  /** Spectators a table open to watchers takes, besides its player, over every watch room. */
  readonly watchersMax: number;
  /** Watchers per watch room (a table's relay on one process); a full one is locked and the next watcher gets a new one. */
  readonly watchRoomMaxClients: number;
  /**
   * Bytes a spectator's socket (watcher or feed) may hold unsent: past it, its updates are
   * coalesced until it has caught up (docs/spectators.md, "Backpressure").
   */
  readonly spectatorMaxUnsentBytes: number;
  /** Origins (scheme://host[:port]) whose pages may call this server besides its own. */
  readonly corsOrigins: readonly string[];
  /** This deployment's public origin, named in recalls (`fairness.server`) for verify-unit to fetch the published roots; null when unset. */
  readonly fairnessOrigin: string | null;
  /** Largest request body, in bytes, on every route (matchmaking included). */
  readonly maxBodyBytes: number;
  /** Proxies in front of this server whose X-Forwarded-For is believed (0: none). */
  readonly trustProxy: number;
  /** Set: `/metrics` on this port of 127.0.0.1 with no token; unset: on PORT with OPERATOR_TOKEN. */
  readonly metricsPort: number | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * The operator's Ed25519 private key that signs the checkpoints of the log of page roots
   * (docs/fairness.md, "Checkpoints"), PKCS#8 PEM: CHECKPOINT_SIGNING_KEY, the PEM or the path of
   * a file holding it. Unset: the embedded default makes one at start and logs it; with Redis
   * the server does not start (every process signs with one key, which outlives a restart).
   */
  readonly checkpointSigningKey: string | undefined;
  /**
   * CHECKPOINT_PREVIOUS_KEYS: the SPKI PEM public keys that signed this log's checkpoints before
   * a rotation (the PEMs, or the path of a file holding them), still published at `/fairness/log/key`.
   */
  readonly checkpointPreviousKeys: readonly string[];
  /** CHECKPOINT_LOG_ID: the log's name in its checkpoints (1–128 printable ASCII, no space). */
  readonly checkpointLogId: string;
  /** The regulator's archive (docs/archive.md). */
  readonly archive: ArchiveSettings;
}

/** The regulator's archive's settings (docs/archive.md, "Settings"). */
export interface ArchiveSettings {
  /** ARCHIVE_DIR: where the writer writes; unset: no writer runs (the outbox still fills). */
  readonly dir: string | undefined;
  /** ARCHIVE_SIGNING_KEY_FILE: the operator's Ed25519 key (PKCS#8 PEM); unset: one is made at start, and said so. */
  readonly signingKeyFile: string | undefined;
  /** ARCHIVE_ENCRYPTION_KEY: 64 hex digits, AES-256-GCM of the files at rest; unset: plain gzip. */
  readonly encryptionKey: string | undefined;
  /** ARCHIVE_SEAL_RECORDS: a seal at most every this many records of a stream. */
  readonly sealRecords: number;
  /** ARCHIVE_SEAL_SECONDS: and at least every this long while records come. */
  readonly sealMs: number;
  /** ARCHIVE_ONLINE_MONTHS: day files younger than this stay in `dir`; older ones move to `coldDir`. */
  readonly onlineMonths: number;
  /** ARCHIVE_RETENTION_YEARS: nothing is deleted before this age (the tool deletes nothing itself). */
  readonly retentionYears: number;
  /** ARCHIVE_COLD_DIR: where day files past the on-line window go; default `<dir>-cold`. */
  readonly coldDir: string | undefined;
}

/** Whether the server keeps its state in Redis (one server or a cluster): shared and kept. */
export function usesRedis(config: Pick<Config, 'redisUrl' | 'redisClusterNodes'>): boolean {
  return config.redisUrl !== undefined || config.redisClusterNodes !== undefined;
}

/** The archive's settings alone (the archive's command line reads them without the server's). */
export function archiveSettings(env: Env = process.env): ArchiveSettings {
  const dir = text(env, 'ARCHIVE_DIR');
  const encryptionKey = text(env, 'ARCHIVE_ENCRYPTION_KEY');
  if (encryptionKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(encryptionKey)) throw new Error('ARCHIVE_ENCRYPTION_KEY must be 64 hex digits (a 32-byte AES-256 key)');
  const settings: ArchiveSettings = {
    dir,
    signingKeyFile: text(env, 'ARCHIVE_SIGNING_KEY_FILE'),
    encryptionKey,
    sealRecords: int(env, 'ARCHIVE_SEAL_RECORDS', 1000, 1, 1_000_000),
    sealMs: int(env, 'ARCHIVE_SEAL_SECONDS', 10, 1, 3600) * 1000,
    onlineMonths: int(env, 'ARCHIVE_ONLINE_MONTHS', 12, 12, 120),
    retentionYears: int(env, 'ARCHIVE_RETENTION_YEARS', 6, 6, 100),
    coldDir: text(env, 'ARCHIVE_COLD_DIR') ?? (dir === undefined ? undefined : `${dir.replace(/\/+$/, '')}-cold`),
  };
  return settings;
}

export function loadConfig(env: Env = process.env): Config {
  const redisUrl = text(env, 'REDIS_URL');
  const rawClusterNodes = text(env, 'REDIS_CLUSTER_NODES');
  const redisClusterNodes = rawClusterNodes === undefined ? undefined : parseClusterNodes(rawClusterNodes);
  const shared = redisUrl !== undefined || redisClusterNodes !== undefined;
  const config: Config = {
    port: int(env, 'PORT', 2567, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    redisUrl,
    redisClusterNodes,
    redisWaitReplicas: int(env, 'REDIS_WAIT_REPLICAS', redisClusterNodes ? 1 : 0, 0, 16),
    redisWaitTimeoutMs: int(env, 'REDIS_WAIT_TIMEOUT_MS', 1000, 10, 60_000),
    // On a cluster, each (game, price) spread over three slots unless told otherwise: losing one
    // master then stops a third of its dealing, not all of it (one Redis has one slot to give).
    redisSequenceLanes: int(env, 'REDIS_SEQUENCE_LANES', redisClusterNodes ? CLUSTER_DEFAULT_LANES : 1, 1, MAX_LANES),
    redisPrefix: text(env, 'REDIS_PREFIX') ?? 'lottery',
    redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 5000, 100, 60_000),
    publicAddress: text(env, 'PUBLIC_ADDRESS'),
    publicAddresses: publicAddresses(env),
    jwtSecret: text(env, 'JWT_SECRET'),
    jwtPublicKey: text(env, 'JWT_PUBLIC_KEY'),
    jwtJwksUrl: text(env, 'JWT_JWKS_URL'),
    jwtAlgorithm: oneOf(env, 'JWT_ALGORITHM', ['RS256', 'ES256'] as const, 'RS256'),
    tokenMaxSeconds: int(env, 'TOKEN_MAX_SECONDS', 86_400, 60, 30 * 86_400),
    jwtIssuer: text(env, 'JWT_ISSUER'),
    jwtAudience: text(env, 'JWT_AUDIENCE'),
    // On by default only where nothing else can sign tokens: embedded, without operator keys.
    devLogin: bool(env, 'DEV_LOGIN', !shared && !text(env, 'JWT_PUBLIC_KEY') && !text(env, 'JWT_JWKS_URL')),
    demoBalance: int(env, 'DEMO_BALANCE_CENTS', 10_000, 0, 100_000_000),
    withdrawalThreshold: env['WITHDRAWAL_THRESHOLD_CENTS'] ? int(env, 'WITHDRAWAL_THRESHOLD_CENTS', 0, 0, 1_000_000_000) : undefined,
    devLoginPerMinute: int(env, 'DEV_LOGIN_PER_MINUTE', 10, 1, 100_000),
    abandonAfterMs: int(env, 'ABANDON_AFTER_SECONDS', 900, 1, 30 * 86_400) * 1000,
    sweepEveryMs: int(env, 'SWEEP_EVERY_SECONDS', 30, 1, 3600) * 1000,
    operatorToken: text(env, 'OPERATOR_TOKEN'),
    protection: {
      realityCheckMs: int(env, 'REALITY_CHECK_MINUTES', 60, 1, 24 * 60) * 60_000,
      sessionIdleMs: int(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60) * 60_000,
      raiseDelayMs: int(env, 'LIMIT_RAISE_DELAY_HOURS', 48, 48, 8760) * 3_600_000,
      demoStakeLimitWeek: int(env, 'DEMO_STAKE_LIMIT_WEEK_CENTS', 10_000, 100, 100_000_000),
    },
    emissionBlocks: int(env, 'EMISSION_BLOCKS', 10, 1, 10_000),
    embeddedKeep: {
      perPlayer: int(env, 'EMBEDDED_KEEP_UNITS_PER_PLAYER', 1000, 1, 1_000_000),
      total: int(env, 'EMBEDDED_KEEP_UNITS', 100_000, 1, 100_000_000),
    },
    maxMessagesPerSecond: int(env, 'MAX_MESSAGES_PER_SECOND', 50, 1, 10_000),
    feedRecent: int(env, 'FEED_RECENT', 20, 0, 1000),
    feedMinPrize: int(env, 'FEED_MIN_PRIZE_CENTS', 1, 1, 100_000_000),
    feedBatchMs: int(env, 'FEED_BATCH_MS', 250, 0, 5000),
    feedRoomMaxClients: int(env, 'FEED_ROOM_MAX_CLIENTS', 2000, 1, 1_000_000),
    prizesLeft: bool(env, 'PRIZES_LEFT', true),
    watchersMax: int(env, 'WATCHERS_MAX', 1000, 0, 1_000_000),
    watchRoomMaxClients: int(env, 'WATCH_ROOM_MAX_CLIENTS', 2000, 1, 1_000_000),
    spectatorMaxUnsentBytes: int(env, 'SPECTATOR_MAX_UNSENT_BYTES', 65_536, 1, 64 * 1_048_576),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    fairnessOrigin: oneOrigin(env, 'FAIRNESS_ORIGIN'),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 16_384, 256, 1_048_576),
    trustProxy: int(env, 'TRUST_PROXY', 0, 0, 10),
    metricsPort: env['METRICS_PORT'] ? int(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    checkpointSigningKey: signingKey(env),
    checkpointPreviousKeys: previousKeys(env),
    checkpointLogId: text(env, 'CHECKPOINT_LOG_ID') ?? 'page-roots',
    archive: archiveSettings(env),
  };
  if (!/^[\x21-\x7e]{1,128}$/.test(config.checkpointLogId)) {
    throw new Error(`CHECKPOINT_LOG_ID must be 1–128 printable ASCII characters without spaces, got ${JSON.stringify(config.checkpointLogId)}`);
  }
  if (config.redisUrl && !/^rediss?:\/\//.test(config.redisUrl)) {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got ${JSON.stringify(config.redisUrl)}`);
  }
  const keySources = (['JWT_SECRET', 'JWT_PUBLIC_KEY', 'JWT_JWKS_URL'] as const).filter((name) => text(env, name) !== undefined);
  if (keySources.length > 1) {
    throw new Error(`tokens are verified with one key source: set one of JWT_SECRET, JWT_PUBLIC_KEY, JWT_JWKS_URL, not ${keySources.join(' and ')}`);
  }
  if (config.jwtJwksUrl && !/^https?:\/\//.test(config.jwtJwksUrl)) {
    throw new Error(`JWT_JWKS_URL must be an http(s) URL, got ${JSON.stringify(config.jwtJwksUrl)}`);
  }
  if (config.devLogin && (config.jwtPublicKey || config.jwtJwksUrl)) {
    throw new Error('DEV_LOGIN=true signs demo tokens with JWT_SECRET: it cannot be on when tokens come from the operator (JWT_PUBLIC_KEY or JWT_JWKS_URL)');
  }
  if (config.metricsPort !== undefined && config.metricsPort === config.port) {
    throw new Error(`METRICS_PORT must differ from PORT (${config.port})`);
  }
  if (config.jwtSecret && config.jwtSecret.length < 32) {
    throw new Error('JWT_SECRET must be at least 32 characters');
  }
  if (shared && keySources.length === 0) {
    throw new Error('with REDIS_URL or REDIS_CLUSTER_NODES, set JWT_SECRET, JWT_PUBLIC_KEY or JWT_JWKS_URL: tokens must outlive a restart');
  }
  if (redisUrl !== undefined && redisClusterNodes !== undefined) {
    throw new Error('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  }
  if (config.redisSequenceLanes > 1 && redisClusterNodes === undefined) {
    throw new Error('REDIS_SEQUENCE_LANES above 1 spreads dealing over a Redis Cluster\'s slots: it needs REDIS_CLUSTER_NODES');
  }
  if (shared && config.checkpointSigningKey === undefined) {
    throw new Error('with REDIS_URL or REDIS_CLUSTER_NODES, set CHECKPOINT_SIGNING_KEY: every process signs the log’s checkpoints with the one key, which must outlive a restart');
  }
  return config;
}
