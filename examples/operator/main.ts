/**
 * The reference operator (docs/integration.md, "The reference operator"):
 *   node --import tsx examples/operator/main.ts [--ledger FILE] [--game-server URL] [--public-url URL]
 *                                               [--start-balance CENTS] [--auto-create]
 * Settings from the environment, a flag winning over its variable: PORT (4100), HOST
 * (127.0.0.1), OPERATOR_SECRET (needed, 32 characters or more: the game server's), OPERATOR_LEDGER
 * (tmp/operator-ledger.ndjson), GAME_SERVER_URL (http://127.0.0.1:2567), OPERATOR_PUBLIC_URL
 * (http://HOST:PORT), START_BALANCE_CENTS (10000), OPERATOR_AUTO_CREATE (1: any wallet call opens
 * the player's account), OPERATOR_ADMIN_TOKEN (the admin calls' bearer token; unset: loopback only).
 */
import { parseArgs } from 'node:util';
import { Faults } from './faults';
import { operatorServer } from './server';
import { Wallet } from './wallet';

function fail(message: string): never {
  console.error(`reference operator: ${message}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    ledger: { type: 'string' },
    'game-server': { type: 'string' },
    'public-url': { type: 'string' },
    'start-balance': { type: 'string' },
    'auto-create': { type: 'boolean' },
  },
});
const env = process.env;
const port = Number(env['PORT'] ?? 4100);
const host = env['HOST'] ?? '127.0.0.1';
const secret = env['OPERATOR_SECRET'] ?? '';
if (secret.length < 32) fail('OPERATOR_SECRET is needed (32 characters or more), the same as the game server\'s');
const startBalance = Number(values['start-balance'] ?? env['START_BALANCE_CENTS'] ?? 10_000);
if (!Number.isSafeInteger(startBalance) || startBalance < 0) fail('the starting balance is a whole number of cents');
const ledger = values.ledger ?? env['OPERATOR_LEDGER'] ?? 'tmp/operator-ledger.ndjson';

const wallet = await Wallet.open(ledger, { startBalance, autoCreate: values['auto-create'] ?? env['OPERATOR_AUTO_CREATE'] === '1', now: Date.now }, (err) => {
  console.error(`reference operator: the ledger cannot be written (${err.message}); stopping`);
  process.exit(1);
});
const server = operatorServer(wallet, new Faults(Date.now), {
  secret,
  gameServer: (values['game-server'] ?? env['GAME_SERVER_URL'] ?? 'http://127.0.0.1:2567').replace(/\/$/, ''),
  publicUrl: (values['public-url'] ?? env['OPERATOR_PUBLIC_URL'] ?? `http://${host}:${port}`).replace(/\/$/, ''),
  adminToken: env['OPERATOR_ADMIN_TOKEN'] || undefined,
});
server.listen(port, host, () => {
  console.log(`reference operator on http://${host}:${port}: wallet /wallet/<call>, lobby /lobby?player=<id>, ledger ${ledger}`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void wallet.close().then(() => process.exit(0));
  });
}
