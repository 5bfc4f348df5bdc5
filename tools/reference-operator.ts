import { signRequest, SIGNATURE_HEADER } from '../src/operator/signature';
import type { BalanceRequest, LedgerLine, MoveRequest, RollbackRequest, WalletCall } from '../src/protocol/operator-api';
import { exited } from './child-processes';
import { freePort } from './redis-server';
import { ChildServer } from './server-process';

/**
 * The reference operator (examples/operator/) run as a child process, for tests, the demo and
 * the chaos run: its wallet calls signed as the game server signs them, its admin calls (faults,
 * players, the ledger export), and a kill -9 and a restart on the same ledger.
 */

export interface ReferenceOperatorOptions {
  readonly ledger: string;
  readonly secret: string;
  /** The game server its lobby launches into. */
  readonly gameServer?: string;
  readonly adminToken?: string;
  readonly port?: number;
  /** More of its settings (START_BALANCE_CENTS, OPERATOR_AUTO_CREATE, OPERATOR_PUBLIC_URL). */
  readonly env?: Readonly<Record<string, string>>;
  readonly onLine?: (line: string) => void;
}

export interface CallOptions {
  /** Sign with another secret (a forged call). */
  readonly secret?: string;
  /** The time signed, ms since the epoch (a skewed clock). */
  readonly signedAt?: number;
  /** Abort the call after this long. */
  readonly timeoutMs?: number;
}

export class ReferenceOperator {
  private constructor(
    readonly options: ReferenceOperatorOptions,
    readonly port: number,
    private server: ChildServer,
  ) {}

  static async start(options: ReferenceOperatorOptions): Promise<ReferenceOperator> {
    const port = options.port ?? (await freePort());
    return new ReferenceOperator(options, port, await ReferenceOperator.spawn(options, port));
  }

  private static spawn(options: ReferenceOperatorOptions, port: number): Promise<ChildServer> {
    return ChildServer.start({
      name: 'reference operator',
      script: 'examples/operator/main.ts',
      port,
      readyPath: '/ready',
      env: {
        OPERATOR_SECRET: options.secret,
        OPERATOR_LEDGER: options.ledger,
        OPERATOR_ADMIN_TOKEN: options.adminToken,
        GAME_SERVER_URL: options.gameServer,
        ...options.env,
      },
      ...(options.onLine ? { onLine: options.onLine } : {}),
    });
  }

  get url(): string {
    return this.server.url;
  }

  /** The WALLET_URL a game server is given. */
  get walletUrl(): string {
    return `${this.server.url}/wallet`;
  }

  get output(): string {
    return this.server.output;
  }

  /** A signed wallet call as the game server makes it; its status and JSON body. */
  async call(call: WalletCall, request: BalanceRequest | MoveRequest | RollbackRequest, options: CallOptions = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const body = JSON.stringify(request);
    const path = `/wallet/${call}`;
    const signature = signRequest(options.secret ?? this.options.secret, { method: 'POST', path, body }, options.signedAt ?? Date.now());
    const res = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** An admin call (with the bearer token when one is set); its status and JSON body. */
  async admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(this.options.adminToken ? { authorization: `Bearer ${this.options.adminToken}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** The ledger export (`GET /ledger`), of one Paris day if given. */
  async ledger(day?: string): Promise<LedgerLine[]> {
    const res = await fetch(`${this.url}/ledger${day ? `?day=${day}` : ''}`, { headers: this.options.adminToken ? { authorization: `Bearer ${this.options.adminToken}` } : {} });
    if (!res.ok) throw new Error(`GET /ledger: ${res.status} ${await res.text()}`);
    return (await res.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LedgerLine);
  }

  /** kill -9: whatever it had not written is lost, as in a crash. */
  async kill(): Promise<void> {
    this.server.process.kill('SIGKILL');
    await exited(this.server.process);
  }

  /** Starts it again on the same port and ledger (after `kill` or `stop`). */
  async restart(): Promise<void> {
    if (this.server.alive) await this.stop();
    this.server = await ReferenceOperator.spawn(this.options, this.port);
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
