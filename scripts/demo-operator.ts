/**
 * `npm run demo:operator [-- --port 2567 --operator-port 4100 --player demo]`: the game server
 * behind the reference operator (docs/integration.md, "Run the demo"). Starts the reference
 * operator (examples/operator/, its ledger in a new temporary directory) and the game server
 * as `npm start` runs it, in seamless mode on the embedded default store: WALLET_MODE=seamless,
 * WALLET_URL the operator's wallet, OPERATOR_SECRET made for this run and given to both. Prints
 * the lobby's URL: « Jouer » launches the game signed in, each purchase is debited from the
 * operator's ledger and each prize credited to it. Ctrl-C stops both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtServer } from '../tools/built-server';
import { optionsOrExit, UsageError, whole, type CommandLine } from '../tools/command-line';
import { ReferenceOperator } from '../tools/reference-operator';
import { ChildServer } from '../tools/server-process';

interface Options {
  readonly port: number;
  readonly operatorPort: number;
  readonly player: string;
}

const COMMAND: CommandLine<Options> = {
  synopsis: 'npm run demo:operator -- [options]',
  defaults: { port: 2567, operatorPort: 4100, player: 'demo' },
  flags: [
    { name: '--port', value: 'N', help: "the game server's port (2567)", set: (o, v) => (o.port = whole(v, 1, 65535)) },
    { name: '--operator-port', value: 'N', help: "the reference operator's port (4100)", set: (o, v) => (o.operatorPort = whole(v, 1, 65535)) },
    {
      name: '--player',
      value: 'ID',
      help: "the operator's player whose lobby is printed (demo); any other id opens an account too",
      set: (o, v) => {
        if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(v)) throw new UsageError('must be 1–64 of [A-Za-z0-9_.:-]');
        o.player = v;
      },
    },
  ],
};

const options = optionsOrExit(COMMAND);
const secret = randomBytes(32).toString('hex');
const gameServerUrl = `http://127.0.0.1:${options.port}`;
const ledger = join(mkdtempSync(join(tmpdir(), 'demo-operator-')), 'ledger.ndjson');

const operator = await ReferenceOperator.start({ ledger, secret, gameServer: gameServerUrl, port: options.operatorPort });
let server: ChildServer;
try {
  server = await ChildServer.start({
    name: 'game server',
    script: builtServer(),
    port: options.port,
    env: { WALLET_MODE: 'seamless', WALLET_URL: operator.walletUrl, OPERATOR_SECRET: secret, OPERATOR_ORIGINS: operator.url, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' },
    onLine: (line) => console.log(`[server] ${line}`),
  });
} catch (err) {
  await operator.stop();
  throw err;
}

console.log(`
game server        ${gameServerUrl} (WALLET_MODE=seamless, the embedded store)
reference operator ${operator.url} (wallet ${operator.walletUrl}, ledger ${ledger})

Open the operator's lobby: ${operator.url}/lobby?player=${options.player}
Its ledger export: ${operator.url}/ledger
Ctrl-C stops both.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().then(() => operator.stop()).then(() => process.exit(0));
  });
}
