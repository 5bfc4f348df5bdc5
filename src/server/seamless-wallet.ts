import { hostname } from 'node:os';
import type { Config } from '../config';
import type { DealerStore } from '../dealer/types';
import type { ArchiveOutbox } from '../dealer/outbox';
import type { ProtectionService } from '../play/protection-service';
import type { RedisClient } from '../redis-scripts/loader';
import { OperatorWallet, type WalletCallRecord } from '../wallet/seamless/operator-wallet';
import { RedisWalletTransactions } from '../wallet/seamless/redis-wallet-transactions';
import { SeamlessMoney } from '../wallet/seamless/seamless-money';
import { MemoryWalletTransactions, type WalletTransactions } from '../wallet/seamless/wallet-transactions';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** How often each process sends what the outbox has due (rollbacks, credits, cut debits). */
const SEND_EVERY_MS = 1000;

export interface SeamlessWallet {
  readonly money: SeamlessMoney;
  readonly outbox: WalletTransactions;
  /** Starts sending what is due, every second; the returned function stops it. */
  startSending(): () => void;
}

/**
 * The seamless wallet as the server runs it (WALLET_MODE=seamless, docs/integration.md): the
 * operator's wallet client, signed with OPERATOR_SECRET; the outbox in the store (Redis, or the
 * process's memory for the embedded default); every call and its answer recorded in the
 * regulator's archive and counted in the metrics.
 */
export function seamlessWallet(
  config: Config,
  dealer: DealerStore,
  redis: RedisClient | undefined,
  protection: ProtectionService,
  archive: ArchiveOutbox | undefined,
  { logger, metrics, now }: { logger: Logger; metrics: Metrics; now: () => number },
): SeamlessWallet {
  const outbox = redis ? new RedisWalletTransactions(redis, config.redisPrefix) : new MemoryWalletTransactions();
  const counted = metrics.walletCalls();
  metrics.watchWalletOutbox(outbox, now);
  const process = `${hostname()}:${globalThis.process.pid}`;
  const recorded = (record: WalletCallRecord) => {
    const { call, request, answer, at, ms } = record;
    counted(call, answer.kind, ms);
    if (answer.kind === 'undecided') logger.warn({ call, request, reason: answer.reason, ms }, "the operator's wallet left a call undecided");
    archive?.append({
      at, kind: 'wallet', player: request.player, session: '', table: '', process,
      payload: { call, request: { ...request }, answer: { ...answer }, ms },
    }).catch((err: unknown) => logger.error({ err }, 'archiving a wallet call failed'));
  };
  const wallet = new OperatorWallet({ url: config.walletUrl!, secret: config.operatorSecret!, timeoutMs: config.walletTimeoutMs, now, recorded });
  const money = new SeamlessMoney({
    sales: dealer.sales,
    wallets: dealer.wallets,
    outbox,
    wallet,
    now,
    timeoutMs: config.walletTimeoutMs,
    protectionRefusal: (playerId, stake) => protection.purchaseRefusal(playerId, stake),
    failed: (tx, err) => logger.error({ err, transaction: tx.id, state: tx.state }, 'sending a wallet movement failed: it is sent again'),
  });
  return {
    money,
    outbox,
    startSending() {
      let sending = false;
      const timer = setInterval(() => {
        if (sending) return;
        sending = true;
        money.sendDue().catch((err: unknown) => logger.error({ err }, 'reading the wallet outbox failed')).finally(() => (sending = false));
      }, SEND_EVERY_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
