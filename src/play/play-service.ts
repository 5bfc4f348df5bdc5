import type { Player } from '../auth/tokens';
import type { DealerStore, Sale, Wallet } from '../dealer/types';
import { unitSeed } from '../fairness/printing';
import { isClientRequestId, unitRequestIds } from '../ids';
import { rulesOf } from '../games/registry';
import { refuse, type GameId, type Refusal } from '../games/types';
import { isProtectionRefusal } from '../protocol/protection';
import type { RefusalCode } from '../protocol/refusals';
import type { ActionLog, LoggedAction } from '../action-log/action-log';
import type { EndedReveal, LiveUnit } from './live-unit';
import type { ProtectionService } from './protection-service';
import type { RecallRecord } from '../protocol/recall';
import { toRecall, type RecallDealer } from './recall';
import { SERVER_COMPLETE, replay } from '../games/replay';
import { DealerMoney, type PlayerMoney } from '../wallet/player-money';

export interface BuyRequest {
  readonly game: GameId;
  /** Checked by the dealer, where the purchase enters it (a price it does not sell: `purchase/unknown_game`). */
  readonly stake: number;
  /** Client idempotency key: a client's request id (src/ids.ts, the request ids' rule). */
  readonly requestId: string;
  /** Purchase-time picks; for the lamp, a list of one or two (both units at once). */
  readonly picks?: unknown;
}

export interface ActRequest {
  readonly action: unknown;
  /** The unit acted on; without it, every unfinished unit of the purchase (both lamp units). */
  readonly unitId?: string | undefined;
}

export type Result<T> = ({ readonly ok: true } & T) | Refusal;

export interface Bought {
  readonly units: LiveUnit[];
  /** Reveals that ended at purchase (a Mine d'or grid without EXTRA), credited. */
  readonly ended: EndedReveal[];
  readonly wallet: Wallet;
}

/** What an action did to the units of one purchase: each moved on, or refused it. */
export interface Acted {
  /** The units given, those that moved on replaced by their next version. */
  readonly units: readonly LiveUnit[];
  /** The units the action was for. */
  readonly unitIds: readonly string[];
  /** Reveals this action ended, their prizes credited. */
  readonly ended: readonly EndedReveal[];
  /** The first refusal; the other units still moved on (two lamp units, one refused). */
  readonly refusal?: Refusal;
  /** The balance with the prizes of the reveals that ended; none when nothing ended. */
  readonly wallet?: Wallet;
}

const UNSETTLED_SCAN = 100;

/**
 * What a player can do with units, independent of any transport: buy, act on a reveal,
 * resume, list and recall; and the server's completion of abandoned units. Rooms and HTTP
 * routes are thin layers over this. Whatever ends a reveal returns it (`ended`): the caller
 * that shows the last step to the player publishes it, once the player could see it.
 */
export class PlayService {
  private readonly seeds = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly dealer: Pick<DealerStore, 'sales' | 'wallets' | 'pages'> & RecallDealer,
    private readonly log: ActionLog,
    private readonly now: () => number,
    /**
     * The protection checks every purchase asks of the dealer, and the journal of the purchases
     * they refuse (docs/responsible-gaming.md): the server always gives them; unit tests of play
     * alone may not (limits set still apply, their refusals unjournaled).
     */
    private readonly protection?: Pick<ProtectionService, 'settings' | 'refused'>,
    /** The public origin recalls name for their block's published roots (docs/recall.md, `fairness.server`). */
    private readonly publicOrigin: string | null = null,
    /** Where stakes and prizes move: the dealer's wallet, or the operator's (WALLET_MODE). */
    private readonly money: PlayerMoney = new DealerMoney(dealer),
  ) {}

  wallet(playerId: string): Promise<Wallet> {
    return this.money.wallet(playerId);
  }

  /**
   * What a player coming back to `game` is shown: the unfinished units, oldest first (GLI-19
   * 4.16: finish them first), or else the last one whose credit a crash left undone, settled now
   * (`ended`) so that the table, the wallet, the history and the recall agree, or else the unit
   * `orElse` (the last one whose end the player has not seen).
   */
  async resume(playerId: string, game: GameId, orElse?: string): Promise<{ units: LiveUnit[]; ended: EndedReveal[] }> {
    const { unfinished, ended } = await this.pending(playerId, game);
    if (unfinished.length > 0 || ended.length > 0) return { units: unfinished.length > 0 ? unfinished : ended.slice(-1).map((e) => e.unit), ended };
    const other = orElse === undefined ? undefined : await this.load(orElse);
    return { units: other?.sale.playerId === playerId ? [other] : [], ended };
  }

  async buy(player: Player, request: BuyRequest): Promise<Result<Bought>> {
    if (!isClientRequestId(request.requestId)) return refuse('purchase/malformed', 'requestId must be 1–48 of A–Z, a–z, 0–9, _');
    const parsed = rulesOf(request.game).parsePicks(request.picks);
    if (!parsed.ok) return parsed;
    const picks = parsed.value; // one entry per unit bought
    // A retry of the whole purchase maps to the same units.
    const requestIds = unitRequestIds(request.requestId, picks.length);
    const { unfinished: pending, ended } = await this.pending(player.playerId, request.game);
    const retried = pending.filter((u) => requestIds.includes(u.sale.requestId));
    // Said here with the unit to finish; the dealer checks it again in the purchase's atomic
    // step (boughtTogether), which two processes racing cannot get past.
    if (pending.length > retried.length) {
      return refuse('purchase/unfinished_unit', `finish unit ${pending[0]!.sale.unitId} before buying another of this game`);
    }
    const units: LiveUnit[] = [];
    for (const [i, pick] of picks.entries()) {
      const result = await this.money.purchase({
        playerId: player.playerId,
        requestId: requestIds[i]!,
        game: request.game,
        stake: request.stake,
        now: this.now(),
        picks: JSON.stringify(pick ?? null),
        boughtTogether: requestIds,
        ...(this.protection ? { protection: this.protection.settings } : {}),
      });
      if (!result.ok) {
        // Journaled with who and when, as the changes are: a refusal for the player's protection.
        if (this.protection && isProtectionRefusal(result.code)) await this.protection.refused(player.playerId, result.code);
        // A later unit still being settled may yet be dealt: the purchase is undecided, and its
        // retry (same request id) answers every unit once it is.
        if (units.length === 0 || result.code === 'wallet/pending') return result.details ? { ...refuse(result.code, result.message), details: result.details } : refuse(result.code, result.message);
        break; // the first lamp unit is bought and will be played; say so by returning it alone
      }
      // A unit dealt by this very call has no action yet: its log need not be read.
      const unit = await this.rebuild(result.sale, result.repeated ? undefined : []);
      // Some reveals end at purchase (a Mine d'or grid without EXTRA): credit the prize now.
      if (unit.finished) ended.push(...(await this.settle(unit, 'purchase')));
      units.push(unit);
    }
    return { ok: true, units, ended, wallet: await this.wallet(player.playerId) };
  }

  /**
   * Applies a player's action to the units of one purchase: to the unit named, or to every
   * unfinished one, so that one rub of the lamp reveals both of its units. Logs each step and
   * settles each reveal that ends.
   */
  async act(playerId: string, units: readonly LiveUnit[], request: ActRequest): Promise<Acted> {
    const unfinished = units.filter((u) => !u.finished);
    const refused = (code: RefusalCode, message: string): Acted => ({ units, unitIds: [], ended: [], refusal: refuse(code, message) });
    if (unfinished.length === 0) return refused('action/no_unit', 'no unit in play: buy one first');
    let targets = unfinished;
    if (request.unitId !== undefined) {
      targets = unfinished.filter((u) => u.sale.unitId === request.unitId);
      if (targets.length === 0) return refused('action/unknown_unit', `no unit ${request.unitId} in play at this table`);
      if (unfinished.length > 1) return refused('action/together', 'the units of one purchase are revealed together: send the action without unitId');
    }
    const next = [...units];
    const ended: EndedReveal[] = [];
    let firstRefusal: Refusal | undefined;
    for (const unit of targets) {
      const result = await this.step(playerId, unit, request.action);
      const moved = result.ok ? result.unit : result.code === 'action/conflict' ? await this.load(unit.sale.unitId) : undefined;
      if (moved) next[next.indexOf(unit)] = moved;
      if (result.ok) ended.push(...result.ended);
      else {
        // Moved on elsewhere, maybe to its end with the credit left undone by a crash.
        if (moved) ended.push(...(await this.settleStranded(moved)));
        firstRefusal ??= result;
      }
    }
    // What ended is returned whatever happens to this read (its win must still be published).
    const wallet = ended.length > 0 ? await this.wallet(playerId).catch(() => undefined) : undefined;
    return {
      units: next,
      unitIds: targets.map((u) => u.sale.unitId),
      ended,
      ...(firstRefusal ? { refusal: firstRefusal } : {}),
      ...(wallet ? { wallet } : {}),
    };
  }

  /**
   * Finishes a unit on the player's behalf (abandoned): the game's `complete` reveals what is
   * left; a unit whose reveal had ended but whose credit a crash left undone is settled.
   */
  async complete(unit: LiveUnit): Promise<Result<{ unit: LiveUnit; ended: EndedReveal[] }>> {
    if (unit.finished) return { ok: true, unit, ended: await this.settle(unit, 'server') };
    return this.commit(unit, SERVER_COMPLETE, 'server', unit.rules.complete(unit.state));
  }

  /**
   * Units untouched for `abandonAfterMs`: unfinished, or finished with their credit undone.
   * The caller completes each (`complete`), through the table showing it if there is one.
   */
  async abandoned(abandonAfterMs: number): Promise<LiveUnit[]> {
    const cutoff = this.now() - abandonAfterMs;
    const sales = await this.dealer.sales.unsettledSales(cutoff, UNSETTLED_SCAN);
    const units = await Promise.all(sales.map((sale) => this.rebuild(sale)));
    return units.filter((unit) => unit.steps[unit.steps.length - 1]!.at <= cutoff);
  }

  /** Settles the units whose credit a crash left undone (at start: the sweeper finds the rest). */
  async settleStrandedUnits(): Promise<EndedReveal[]> {
    const sales = await this.dealer.sales.unsettledSales(this.now(), UNSETTLED_SCAN);
    const ended: EndedReveal[] = [];
    for (const sale of sales) ended.push(...(await this.settleStranded(await this.rebuild(sale))));
    return ended;
  }

  /** Reloads a unit from the store (after a conflict, or to resume). */
  async load(unitId: string): Promise<LiveUnit | undefined> {
    const sale = await this.dealer.sales.getSale(unitId);
    return sale && this.rebuild(sale);
  }

  /** One unit, one action: validated by the game, applied, logged. */
  private async step(playerId: string, unit: LiveUnit, rawAction: unknown): Promise<Result<{ unit: LiveUnit; ended: EndedReveal[] }>> {
    if (unit.sale.playerId !== playerId) return refuse('action/not_yours', 'this unit belongs to another player');
    const parsed = unit.rules.parseAction(rawAction);
    if (!parsed.ok) return parsed;
    const step = unit.rules.reduce(unit.state, parsed.value);
    if (!step.ok) return step;
    return this.commit(unit, parsed.value, 'player', step);
  }

  private async commit(
    unit: LiveUnit,
    action: unknown,
    by: 'player' | 'server',
    step: { state: unknown; events: readonly { type: string }[] },
  ): Promise<Result<{ unit: LiveUnit; ended: EndedReveal[] }>> {
    const at = this.now();
    const appended = await this.log.append(unit.sale.unitId, unit.steps.length - 1, { action, at, by });
    if (!appended) return refuse('action/conflict', 'the unit moved on elsewhere; it has been reloaded');
    const finished = unit.rules.isFinished(step.state);
    const next: LiveUnit = {
      ...unit,
      state: step.state,
      finished,
      steps: [...unit.steps, { seq: unit.steps.length, at, by, action, events: step.events }],
    };
    return { ok: true, unit: next, ended: finished ? await this.settle(next, by) : [] };
  }

  /** The player's unsettled units of `game`: unfinished ones, and finished ones settled now. */
  private async pending(playerId: string, game: GameId): Promise<{ unfinished: LiveUnit[]; ended: EndedReveal[] }> {
    const sales = await this.dealer.sales.unsettledSales(this.now(), UNSETTLED_SCAN, playerId);
    const units = await Promise.all(sales.filter((s) => s.game === game).map((s) => this.rebuild(s)));
    const ended: EndedReveal[] = [];
    for (const unit of units) ended.push(...(await this.settleStranded(unit)));
    return { unfinished: units.filter((u) => !u.finished), ended };
  }

  /**
   * A unit whose log reached its end but whose prize was not credited (the process died in
   * between) is settled wherever it is next seen; idempotent, so a race credits it once.
   */
  private settleStranded(unit: LiveUnit): Promise<EndedReveal[]> {
    return unit.finished && unit.sale.settledAt === undefined ? this.settle(unit, 'server') : Promise.resolve([]);
  }

  /** Credits a finished unit's prize; settlement is idempotent: only the call that credited tells. */
  private async settle(unit: LiveUnit, by: EndedReveal['by']): Promise<EndedReveal[]> {
    const settled = await this.money.settle(unit.sale, this.now());
    if (!settled.ok) throw new Error(`settle ${unit.sale.unitId}: ${settled.code}`);
    return settled.credited ? [{ unit, by }] : [];
  }

  /** A page of the player's units, newest first; a credit a crash left undone is done first. */
  async history(playerId: string, offset: number, limit: number): Promise<{ sales: Sale[]; ended: EndedReveal[] }> {
    const sales = await this.dealer.sales.listSales(playerId, offset, limit);
    const ended: EndedReveal[] = [];
    for (const sale of sales.filter((s) => s.settledAt === undefined)) ended.push(...(await this.settleStranded(await this.rebuild(sale))));
    if (ended.length === 0) return { sales, ended };
    return { sales: await this.dealer.sales.listSales(playerId, offset, limit), ended };
  }

  /** A unit of the player's, replayed from the store (settled first if a crash left it so); undefined for anyone else's. */
  async recall(playerId: string, unitId: string): Promise<{ record: RecallRecord; ended: EndedReveal[] } | undefined> {
    const unit = await this.load(unitId);
    if (!unit || unit.sale.playerId !== playerId) return undefined;
    const ended = await this.settleStranded(unit);
    return { record: await toRecall(this.dealer, unit, this.publicOrigin), ended };
  }

  /** A unit as stored: its deal replayed with its action log (`log`, when the caller knows it). */
  private async rebuild(sale: Sale, log?: readonly LoggedAction[]): Promise<LiveUnit> {
    const rules = rulesOf(sale.game);
    const seed = unitSeed(await this.blockSeed(sale.blockId), sale.position);
    log ??= await this.log.read(sale.unitId);
    const picks: unknown = sale.picks === '' ? undefined : (JSON.parse(sale.picks) as unknown) ?? undefined;
    const played = replay(rules, { stake: sale.stake, prize: sale.prize }, seed, picks, sale.soldAt, log);
    return { sale, rules, state: played.state, steps: played.steps, finished: played.finished };
  }

  private blockSeed(blockId: string): Promise<Uint8Array> {
    let seed = this.seeds.get(blockId);
    if (!seed) {
      seed = this.dealer.pages.blockSeed(blockId);
      this.seeds.set(blockId, seed);
      seed.catch(() => this.seeds.delete(blockId));
    }
    return seed;
  }
}
