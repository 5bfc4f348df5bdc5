import { randomBytes } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The environment of a game server driven by synthetic players: their dev logins (all from this
 * one address), money enough that none runs out, a flood limit they cannot reach (each waits
 * for its reply), the operator token the books are read with, and no pace (the drive sets
 * its own: --think-ms).
 */
export function syntheticPlayersEnv(jwtSecret: string, operatorToken: string): Record<string, string> {
  return {
    JWT_SECRET: jwtSecret,
    DEV_LOGIN: 'true',
    DEV_LOGIN_PER_MINUTE: '100000',
    OPERATOR_TOKEN: operatorToken,
    DEMO_BALANCE_CENTS: '100000000',
    MAX_MESSAGES_PER_SECOND: '10000',
    PACE_UNIT_MS: '0',
  };
}
