import type { DealerStore, PurchaseRequest, PurchaseResult, Sale, SettleResult, Wallet } from '../dealer/types';

/**
 * Where a player's money moves when a unit is bought and when its prize is paid: the dealer's
 * own wallet (`DealerMoney`, WALLET_MODE=internal), or the operator's wallet
 * (`SeamlessMoney`, WALLET_MODE=seamless). The play service buys and settles through it.
 */
export interface PlayerMoney {
  /** Buys one unit: the stake taken, the unit dealt, or a refusal and nothing taken. */
  purchase(request: PurchaseRequest): Promise<PurchaseResult>;
  /** Settles a finished unit: its prize credited once, whoever calls. */
  settle(sale: Sale, now: number): Promise<SettleResult>;
  /** What the player is shown of their money. */
  wallet(playerId: string): Promise<Wallet>;
}

/** The dealer's own wallet: the stake and the prize move in the dealer's atomic steps. */
export class DealerMoney implements PlayerMoney {
  constructor(private readonly dealer: Pick<DealerStore, 'sales' | 'wallets'>) {}

  purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    return this.dealer.sales.purchase(request);
  }

  settle(sale: Sale, now: number): Promise<SettleResult> {
    return this.dealer.sales.settle(sale.unitId, now);
  }

  wallet(playerId: string): Promise<Wallet> {
    return this.dealer.wallets.wallet(playerId);
  }
}
