import { performance } from 'node:perf_hooks';
import { parseUnitId } from '../ids';
import type { DealerStore, DepositResult, Emissions, JournalPageRequest, PlayerId, PurchaseRequest, PurchaseResult, Sales, SettleResult, Wallets, WithdrawResult } from '../dealer/types';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/**
 * The dealer as the server uses it: the store with its sales and wallets observed, every
 * purchase and settlement counted (units sold, prizes paid, refusals, purchase time) and logged
 * with the unit's ids, whoever calls it (rooms, the abandoned-unit sweeper), and every deposit
 * and withdrawal logged, a failure of any of them counted (`lottery_store_errors_total`). Its
 * other roles are the store's own objects. The store itself stays free of metrics and logs.
 */
export function observedDealer(store: DealerStore, metrics: Metrics, logger: Logger): DealerStore {
  const { emissions, pages, log, offloading, protections, events } = store;
  return {
    emissions,
    sales: new ObservedSales(store.sales, emissions, metrics, logger),
    wallets: new ObservedWallets(store.wallets, metrics, logger),
    pages,
    log,
    offloading,
    protections,
    events,
    close: () => store.close(),
  };
}

/** `operation`'s answer; a failure (the store unreachable, a reply it did not expect) counted, then thrown on. */
async function counted<T>(metrics: Metrics, operation: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    metrics.storeErrors.inc({ operation });
    throw err;
  }
}

class ObservedSales implements Sales {
  /** emissionId → the game and price its units are sold at (prizes are counted per both). */
  private readonly emissions = new Map<string, { game: string; stake: string }>();

  constructor(
    private readonly dealer: Sales,
    private readonly catalog: Pick<Emissions, 'listEmissions'>,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {}

  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const started = performance.now();
    const result = await counted(this.metrics, 'purchase', this.dealer.purchase(request));
    this.metrics.purchaseSeconds.observe((performance.now() - started) / 1000);
    const ids = { playerId: request.playerId, requestId: request.requestId };
    if (!result.ok) {
      this.metrics.purchasesRefused.inc({ code: result.code });
      this.logger.info({ ...ids, game: request.game, stake: request.stake, code: result.code }, 'purchase refused');
    } else if (!result.repeated) {
      this.metrics.unitsSold.inc({ game: result.sale.game, stake: String(result.sale.stake) });
      this.logger.info({ ...ids, unitId: result.sale.unitId, game: result.sale.game, stake: result.sale.stake }, 'unit sold');
    }
    return result;
  }

  async settle(unitId: string, now: number): Promise<SettleResult> {
    const result = await counted(this.metrics, 'settle', this.dealer.settle(unitId, now));
    if (result.ok && result.credited) {
      if (result.prize > 0) {
        const labels = await this.tableOf(unitId);
        this.metrics.prizesPaid.inc(labels);
        this.metrics.prizesPaidCents.inc(labels, result.prize);
      }
      // The prize is not logged: the journal has it (docs/operations.md, "Logs").
      this.logger.info({ unitId, won: result.prize > 0 }, 'unit settled');
    }
    return result;
  }

  getSale(unitId: string) {
    return this.dealer.getSale(unitId);
  }
  listSales(playerId: PlayerId, offset: number, limit: number) {
    return this.dealer.listSales(playerId, offset, limit);
  }
  unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId) {
    return this.dealer.unsettledSales(soldBefore, limit, playerId);
  }

  private async tableOf(unitId: string): Promise<{ game: string; stake: string }> {
    const emissionId = parseUnitId(unitId)?.emissionId ?? '';
    if (!this.emissions.has(emissionId)) {
      for (const e of await this.catalog.listEmissions()) this.emissions.set(e.emissionId, { game: e.game, stake: String(e.stake) });
    }
    return this.emissions.get(emissionId) ?? { game: 'unknown', stake: 'unknown' };
  }
}

class ObservedWallets implements Wallets {
  constructor(
    private readonly dealer: Wallets,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {}

  async deposit(playerId: PlayerId, amount: number, ref: string, now: number, otherRef?: string): Promise<DepositResult> {
    const result = await counted(this.metrics, 'deposit', this.dealer.deposit(playerId, amount, ref, now, otherRef));
    this.logger.info({ playerId, ref, ...(result.ok ? {} : { code: result.code }) }, result.ok ? 'deposit' : 'deposit refused');
    return result;
  }
  async withdraw(playerId: PlayerId, amount: number, ref: string, now: number, otherRef?: string): Promise<WithdrawResult> {
    const result = await counted(this.metrics, 'withdraw', this.dealer.withdraw(playerId, amount, ref, now, otherRef));
    this.logger.info({ playerId, ref, ...(result.ok ? {} : { code: result.code }) }, result.ok ? 'withdrawal' : 'withdrawal refused');
    return result;
  }
  balance(playerId: PlayerId) {
    return this.dealer.balance(playerId);
  }
  wallet(playerId: PlayerId) {
    return this.dealer.wallet(playerId);
  }
  journal(playerId: PlayerId) {
    return this.dealer.journal(playerId);
  }
  journalPage(playerId: PlayerId, page: JournalPageRequest) {
    return this.dealer.journalPage(playerId, page);
  }
}
