import type { Cents } from '../money';
import type { ProtectionChange } from '../protocol/protection';
import type { UnitProof } from '../fairness/merkle';
import type { ProtectionRecord, SessionMoney } from '../protection/rules';
import type {
  Offloading,
  BlockInfo,
  DealerStore,
  DepositResult,
  EmissionInfo,
  Emissions,
  FairnessPages,
  JournalEntry,
  JournalPageRequest,
  OpenEmissionRequest,
  OperatorEvents,
  OperatorEventsPage,
  PageCommitment,
  PageLog,
  PlayerId,
  ProtectionUpdate,
  Protections,
  PurchaseRequest,
  PurchaseResult,
  Sale,
  Sales,
  SettleResult,
  Wallet,
  Wallets,
  WithdrawResult,
} from './types';

/** The roles a whole store is made of, each one object. */
export interface DealerRoles {
  readonly emissions: Emissions;
  readonly sales: Sales;
  readonly wallets: Wallets;
  readonly pages: FairnessPages;
  readonly log: PageLog;
  readonly offloading: Offloading;
  readonly protections: Protections;
  readonly events: OperatorEvents;
}

/**
 * A `DealerStore` made of its roles: each call goes to the role that answers it. Both stores
 * are made so, and the server's observed dealer, which replaces two roles of the store it wraps.
 */
export abstract class RoleStore implements DealerStore {
  constructor(private readonly roles: DealerRoles) {}

  abstract close(): Promise<void>;

  openEmission(request: OpenEmissionRequest): Promise<EmissionInfo> {
    return this.roles.emissions.openEmission(request);
  }
  listEmissions(): Promise<EmissionInfo[]> {
    return this.roles.emissions.listEmissions();
  }
  block(blockId: string): Promise<BlockInfo | undefined> {
    return this.roles.emissions.block(blockId);
  }

  purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    return this.roles.sales.purchase(request);
  }
  settle(unitId: string, now: number): Promise<SettleResult> {
    return this.roles.sales.settle(unitId, now);
  }
  getSale(unitId: string): Promise<Sale | undefined> {
    return this.roles.sales.getSale(unitId);
  }
  listSales(playerId: PlayerId, offset: number, limit: number): Promise<Sale[]> {
    return this.roles.sales.listSales(playerId, offset, limit);
  }
  unsettledSales(soldBefore: number, limit: number, playerId?: PlayerId): Promise<Sale[]> {
    return this.roles.sales.unsettledSales(soldBefore, limit, playerId);
  }

  deposit(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<DepositResult> {
    return this.roles.wallets.deposit(playerId, amount, ref, now);
  }
  withdraw(playerId: PlayerId, amount: Cents, ref: string, now: number): Promise<WithdrawResult> {
    return this.roles.wallets.withdraw(playerId, amount, ref, now);
  }
  balance(playerId: PlayerId): Promise<Cents> {
    return this.roles.wallets.balance(playerId);
  }
  wallet(playerId: PlayerId): Promise<Wallet> {
    return this.roles.wallets.wallet(playerId);
  }
  journal(playerId: PlayerId): Promise<JournalEntry[]> {
    return this.roles.wallets.journal(playerId);
  }
  journalPage(playerId: PlayerId, page: JournalPageRequest): Promise<JournalEntry[]> {
    return this.roles.wallets.journalPage(playerId, page);
  }

  blockSeed(blockId: string): Promise<Uint8Array> {
    return this.roles.pages.blockSeed(blockId);
  }
  recordedTiers(blockId: string): Promise<Uint8Array | undefined> {
    return this.roles.pages.recordedTiers(blockId);
  }
  pageCommitments(blockId: string): Promise<PageCommitment[] | undefined> {
    return this.roles.pages.pageCommitments(blockId);
  }
  unitProof(unitId: string): Promise<UnitProof | undefined> {
    return this.roles.pages.unitProof(unitId);
  }

  logSize(): Promise<number> {
    return this.roles.log.logSize();
  }
  logLeaves(from: number, count: number): Promise<string[]> {
    return this.roles.log.logLeaves(from, count);
  }
  logIndexOf(blockId: string, page: number): Promise<number | undefined> {
    return this.roles.log.logIndexOf(blockId, page);
  }

  protectionRecord(playerId: PlayerId): Promise<{ record: ProtectionRecord; history: ProtectionChange[] }> {
    return this.roles.protections.protectionRecord(playerId);
  }
  sessionMoney(playerId: PlayerId, since: number): Promise<SessionMoney> {
    return this.roles.protections.sessionMoney(playerId, since);
  }
  changeProtection(playerId: PlayerId, update: ProtectionUpdate, now: number): Promise<void> {
    return this.roles.protections.changeProtection(playerId, update, now);
  }

  offloadableBlocks(closedBefore: number): Promise<string[]> {
    return this.roles.offloading.offloadableBlocks(closedBefore);
  }
  blockSales(blockId: string, from: number, limit: number): Promise<Sale[]> {
    return this.roles.offloading.blockSales(blockId, from, limit);
  }
  markOffloaded(blockId: string, path: string, now: number): Promise<boolean> {
    return this.roles.offloading.markOffloaded(blockId, path, now);
  }

  events(after: string | undefined, limit: number): Promise<OperatorEventsPage> {
    return this.roles.events.events(after, limit);
  }
}
