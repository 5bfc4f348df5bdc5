import { randomBytes } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, errors, importSPKI, jwtVerify, type JWTVerifyOptions } from 'jose';
import type { Config } from '../config';
import type { RefusalCode } from '../protocol/refusals';
import type { LaunchStore } from './launch-store';
import { ANONYMOUS, normalizePseudonym } from './pseudonym';

/** Who a verified token says the caller is. `pseudonym` is what spectators may see. */
export interface Player {
  readonly playerId: string;
  readonly pseudonym: string;
}

/** A player as a verified token shows them, with when that token dies (ms since the epoch). */
export interface VerifiedPlayer extends Player {
  readonly expiresAt: number;
  /** A session launched by the operator (`POST /operator/launch`): its id; absent for other tokens. */
  readonly sessionId?: string;
}

/** A session the server opens for a launched player: its token carries its id and start. */
export interface LaunchedSession {
  readonly sessionId: string;
  /** Ms since the epoch: the operator's end of the player's sessions at or after it ends this one. */
  readonly startedAt: number;
}

export class AuthError extends Error {
  constructor(readonly code: Extract<RefusalCode, 'auth/missing' | 'auth/malformed' | 'auth/expired' | 'auth/invalid' | 'auth/session_ended'>, message: string) {
    super(message);
  }
}

const PLAYER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
/** How far ahead of this server's clock an issuer's clock may be (`iat`). */
const CLOCK_SKEW_SECONDS = 60;
type VerifyKey = Parameters<typeof jwtVerify>[1];

/**
 * Player tokens are JWTs: `sub` is the player id, `name` an optional pseudonym, `exp` required
 * and at most `TOKEN_MAX_SECONDS` after `iat` (or after now, without `iat`), and `iat` not in the
 * future (a minute of clock skew allowed): a stolen token dies.
 * Verified with `jose` against the configured key: HS256 secret, an RS256/ES256 public key of
 * the operator, or the operator's JSON Web Key Set (fetched and cached by jose, refetched on an
 * unknown key id).
 */
export class TokenVerifier {
  private constructor(
    private readonly key: VerifyKey,
    private readonly options: JWTVerifyOptions,
    /** Present only with an HS256 secret: the dev login signs its demo tokens with it. */
    private readonly signingSecret: Uint8Array | undefined,
    private readonly maxSeconds: number,
    /** The clock tokens are checked by: the store's on a server (src/server/store-clock.ts). */
    readonly now: () => number,
    /** Where the operator's ends of launched sessions are kept: read for tokens carrying a session. */
    private readonly sessions: Pick<LaunchStore, 'sessionsEndedAt'> | undefined,
  ) {}

  static async fromConfig(config: Config, now: () => number = Date.now, sessions?: Pick<LaunchStore, 'sessionsEndedAt'>): Promise<TokenVerifier> {
    const options: JWTVerifyOptions = { requiredClaims: ['exp'] };
    if (config.jwtIssuer) options.issuer = config.jwtIssuer;
    if (config.jwtAudience) options.audience = config.jwtAudience;
    if (config.jwtPublicKey) {
      // Environment variables often carry PEM newlines as "\n".
      const pem = config.jwtPublicKey.replace(/\\n/g, '\n');
      const key = await importSPKI(pem, config.jwtAlgorithm);
      return new TokenVerifier(key, { ...options, algorithms: [config.jwtAlgorithm] }, undefined, config.tokenMaxSeconds, now, sessions);
    }
    if (config.jwtJwksUrl) {
      const keys = createRemoteJWKSet(new URL(config.jwtJwksUrl));
      return new TokenVerifier(keys, { ...options, algorithms: [config.jwtAlgorithm] }, undefined, config.tokenMaxSeconds, now, sessions);
    }
    // Embedded mode without a configured secret: a fresh one, so tokens die with the process.
    const secret = new TextEncoder().encode(config.jwtSecret ?? randomBytes(32).toString('hex'));
    return new TokenVerifier(secret, { ...options, algorithms: ['HS256'] }, secret, config.tokenMaxSeconds, now, sessions);
  }

  async verify(token: unknown): Promise<VerifiedPlayer> {
    if (token === undefined || token === null || token === '') throw new AuthError('auth/missing', 'a player token is required');
    if (typeof token !== 'string' || token.length > 4096 || token.split('.').length !== 3) {
      throw new AuthError('auth/malformed', 'the token is not a JWT');
    }
    const nowMs = this.now();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { ...this.options, currentDate: new Date(nowMs) }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AuthError('auth/expired', 'the token has expired');
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'exp') throw new AuthError('auth/invalid', 'the token must carry an expiry (exp)');
      if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) throw new AuthError('auth/malformed', 'the token is not a valid JWT');
      throw new AuthError('auth/invalid', 'the token could not be verified');
    }
    const nowSeconds = nowMs / 1000;
    // A token issued "later" would otherwise stretch its life past TOKEN_MAX_SECONDS (exp − iat).
    if (typeof payload.iat === 'number' && payload.iat > nowSeconds + CLOCK_SKEW_SECONDS) throw new AuthError('auth/invalid', 'the token is issued in the future');
    const from = typeof payload.iat === 'number' ? payload.iat : nowSeconds;
    if (payload.exp! - from > this.maxSeconds) throw new AuthError('auth/invalid', 'the token lives longer than this server accepts');
    const sub = payload.sub;
    if (typeof sub !== 'string' || !PLAYER_ID.test(sub)) throw new AuthError('auth/invalid', 'the token has no valid subject');
    await this.refuseEndedSession(sub, payload);
    // Spectators see the pseudonym: without a valid `name`, nothing derived from the account.
    const name = typeof payload['name'] === 'string' ? normalizePseudonym(payload['name']) : undefined;
    const verified: VerifiedPlayer = { playerId: sub, pseudonym: name ?? ANONYMOUS, expiresAt: payload.exp! * 1000 };
    return typeof payload['sid'] === 'string' ? { ...verified, sessionId: payload['sid'] } : verified;
  }

  /**
   * A launched session's token is refused once the operator ended the player's sessions at or
   * after its start, on every process (the end is in the store); other tokens are not read for it.
   */
  private async refuseEndedSession(playerId: string, payload: Readonly<Record<string, unknown>>): Promise<void> {
    if (typeof payload['sid'] !== 'string' || this.sessions === undefined) return;
    const endedAt = await this.sessions.sessionsEndedAt(playerId);
    const startedAt = typeof payload['sst'] === 'number' ? payload['sst'] : 0;
    if (endedAt !== undefined && startedAt <= endedAt) throw new AuthError('auth/session_ended', 'the operator ended this session');
  }

  /** Whether this server signs tokens itself (an HS256 secret): the dev login and launches need it. */
  get signs(): boolean {
    return this.signingSecret !== undefined;
  }

  /** Signs a demo token (dev login); only possible with an HS256 secret. */
  signDemo(player: Player, ttlSeconds: number): Promise<string> {
    return this.sign(player, ttlSeconds, {});
  }

  /** Signs the token of a session launched by the operator; only possible with an HS256 secret. */
  signLaunched(player: Player, ttlSeconds: number, session: LaunchedSession): Promise<string> {
    return this.sign(player, ttlSeconds, { sid: session.sessionId, sst: session.startedAt });
  }

  private async sign(player: Player, ttlSeconds: number, claims: Record<string, string | number>): Promise<string> {
    if (!this.signingSecret) throw new Error('signing player tokens needs an HS256 secret');
    const nowSeconds = Math.floor(this.now() / 1000);
    let jwt = new SignJWT({ name: player.pseudonym, ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(player.playerId)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + Math.min(ttlSeconds, this.maxSeconds));
    if (this.options.issuer) jwt = jwt.setIssuer(this.options.issuer as string);
    if (this.options.audience) jwt = jwt.setAudience(this.options.audience as string);
    return jwt.sign(this.signingSecret);
  }
}
