import { z } from 'zod';
import type { Cents } from '../../money';
import { WALLET_ERROR_CODES, type BalanceRequest, type MoveRequest, type RollbackRequest, type WalletCall, type WalletErrorCode } from '../../protocol/operator-api';
import { SIGNATURE_HEADER, signRequest } from '../../operator/signature';

/**
 * What a call to the operator's wallet came to, in the three classes the server acts on
 * (docs/integration.md, "The wallet calls"):
 * - `ok`: the movement is made (or was made before under this id: the same answer);
 * - `refused`: a definite refusal (HTTP 4xx with a known code): nothing moved, and nothing will
 *   under this id;
 * - `undecided`: anything else — a timeout, a 5xx, a connection cut, an answer that cannot be
 *   read: the movement may or may not be made. A debit is then rolled back; a credit or a
 *   rollback is sent again.
 */
export type WalletAnswer =
  | { readonly kind: 'ok'; readonly balance: Cents; readonly status: number }
  | { readonly kind: 'refused'; readonly code: WalletErrorCode; readonly message: string; readonly status: number; readonly balance?: Cents }
  | { readonly kind: 'undecided'; readonly reason: string; readonly status?: number };

/** One call and its answer, as the regulator's archive records it. */
export interface WalletCallRecord {
  readonly call: WalletCall;
  readonly request: BalanceRequest | MoveRequest | RollbackRequest;
  readonly answer: WalletAnswer;
  /** When it was sent (store time, ms) and how long the answer took. */
  readonly at: number;
  readonly ms: number;
}

export interface OperatorWalletOptions {
  /** WALLET_URL: the calls go to `<url>/<call>`. */
  readonly url: string;
  /** OPERATOR_SECRET: signs every call. */
  readonly secret: string;
  /** WALLET_TIMEOUT_MS: past it the call is undecided. */
  readonly timeoutMs: number;
  /** The store's clock: the signature's time. */
  readonly now: () => number;
  /** Told each call and its answer (the archive), whatever it came to. */
  readonly recorded?: (record: WalletCallRecord) => void;
}

const cents = z.number().int().safe();
const okBody = z.object({ balance: cents, currency: z.literal('EUR') });
const errorBody = z.object({ error: z.enum(WALLET_ERROR_CODES), message: z.string(), balance: cents.optional() });

/** The operator's wallet's four calls, each answer sorted into `WalletAnswer`. */
export interface WalletApi {
  balance(request: BalanceRequest): Promise<WalletAnswer>;
  debit(request: MoveRequest): Promise<WalletAnswer>;
  credit(request: MoveRequest): Promise<WalletAnswer>;
  rollback(request: RollbackRequest): Promise<WalletAnswer>;
}

/** The operator's wallet over HTTP: signed JSON POSTs. */
export class OperatorWallet implements WalletApi {
  constructor(private readonly options: OperatorWalletOptions) {}

  balance(request: BalanceRequest): Promise<WalletAnswer> {
    return this.call('balance', request);
  }

  debit(request: MoveRequest): Promise<WalletAnswer> {
    return this.call('debit', request);
  }

  credit(request: MoveRequest): Promise<WalletAnswer> {
    return this.call('credit', request);
  }

  rollback(request: RollbackRequest): Promise<WalletAnswer> {
    return this.call('rollback', request);
  }

  private async call(call: WalletCall, request: BalanceRequest | MoveRequest | RollbackRequest): Promise<WalletAnswer> {
    const { url, secret, timeoutMs, now, recorded } = this.options;
    const target = new URL(`${url}/${call}`);
    const body = JSON.stringify(request);
    const at = now();
    const started = performance.now();
    const answer = await send(target, body, signRequest(secret, { method: 'POST', path: target.pathname, body }, at), timeoutMs);
    recorded?.({ call, request, answer, at, ms: Math.round(performance.now() - started) });
    return answer;
  }
}

async function send(target: URL, body: string, signature: string, timeoutMs: number): Promise<WalletAnswer> {
  let response: Response;
  let text: string;
  try {
    // The timeout covers the answer's body too: an answer that starts and never ends is undecided.
    const signal = AbortSignal.timeout(timeoutMs);
    response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature }, body, signal, redirect: 'error' });
    text = await response.text();
  } catch (err) {
    const reason = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError') ? 'timeout' : `connection: ${(err as Error).cause ?? (err as Error).message}`;
    return { kind: 'undecided', reason };
  }
  const status = response.status;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'undecided', reason: `unreadable answer (HTTP ${status})`, status };
  }
  if (status === 200) {
    const ok = okBody.safeParse(json);
    return ok.success ? { kind: 'ok', balance: ok.data.balance, status } : { kind: 'undecided', reason: 'an answer of another shape (HTTP 200)', status };
  }
  if (status >= 400 && status < 500) {
    const refused = errorBody.safeParse(json);
    // A 4xx without a known code says nothing sure about the movement.
    if (refused.success) {
      return { kind: 'refused', code: refused.data.error, message: refused.data.message, status, ...(refused.data.balance !== undefined ? { balance: refused.data.balance } : {}) };
    }
  }
  return { kind: 'undecided', reason: `HTTP ${status}`, status };
}
