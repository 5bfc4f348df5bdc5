import type { Player } from '../auth/tokens';
import type { DealerStore, Sale } from '../dealer/types';
import { unitSeed } from '../dealer/printing';
import { findPrizeTable } from '../games/prize-tables';
import { rulesOf, type AnyGameRules } from '../games/registry';
import { GAME_IDS, type GameId, type Refusal } from '../games/types';
import type { Cents } from '../money';
import type { ActionLog } from '../units/action-log';
import { toRecall, type RecallRecord } from './recall';
import { SERVER_COMPLETE, replay, type PlayedStep } from './replay';

/** A unit being played: its sale and its reveal as rebuilt from the store. */
export interface LiveUnit {
  readonly sale: Sale;
  readonly rules: AnyGameRules;
  readonly state: unknown;
  readonly steps: readonly PlayedStep[];
  readonly finished: boolean;
}

export interface Wallet {
  readonly balance: Cents;
  /** Stakes of units bought and not yet finished. */
  readonly held: Cents;
}

export interface BuyRequest {
  readonly game: string;
  readonly stake: number;
  /** Client idempotency key: 1–48 of [A-Za-z0-9_]. */
  readonly requestId: string;
  /** Purchase-time picks; for the lamp, a list of one or two (both units at once). */
  readonly picks?: unknown;
}

/**
 * A unit's reveal has ended and its prize was credited: told once per unit, after the credit.
 * `by` says who ended it: the purchase itself (a reveal that ends at purchase), the player's
 * last action, or the server (an abandoned unit completed, or a credit left undone by a crash).
 * The caller that showed the last step decides when it may be published (docs/spectators.md).
 */
export interface RevealEnd {
  readonly unit: LiveUnit;
  readonly by: 'purchase' | 'player' | 'server';
}

export type RevealEndListener = (event: RevealEnd) => void;

export type Result<T> = ({ readonly ok: true } & T) | Refusal;

const REQUEST_ID = /^[A-Za-z0-9_]{1,48}$/;
const UNSETTLED_SCAN = 100;

function refusal(code: string, message: string): Refusal {
  return { ok: false, code, message };
}

function isGameId(game: string): game is GameId {
  return (GAME_IDS as readonly string[]).includes(game);
}

/**
 * What a player can do with units, independent of any transport: buy, act on a reveal,
 * resume, list and recall; and the server's completion of abandoned units. Rooms and HTTP
 * routes are thin layers over this.
 */
export class PlayService {
  private readonly seeds = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly dealer: DealerStore,
    private readonly log: ActionLog,
    private readonly now: () => number,
    /** Told when a unit's reveal ends and its prize is credited (once per unit). */
    private readonly onRevealEnd?: RevealEndListener,
  ) {}

  async wallet(playerId: string): Promise<Wallet> {
    const [balance, unsettled] = await Promise.all([
      this.dealer.balance(playerId),
      this.dealer.unsettledSales(this.now(), UNSETTLED_SCAN, playerId),
    ]);
    return { balance, held: unsettled.reduce((sum, s) => sum + s.stake, 0) };
  }

  /** The player's unfinished units of `game`, oldest first (GLI-19 4.16: finish them first). */
  async unfinished(playerId: string, game: GameId): Promise<LiveUnit[]> {
    const sales = await this.dealer.unsettledSales(this.now(), UNSETTLED_SCAN, playerId);
    return Promise.all(sales.filter((s) => s.game === game).map((s) => this.rebuild(s)));
  }

  async buy(player: Player, request: BuyRequest): Promise<Result<{ units: LiveUnit[] }>> {
    if (!REQUEST_ID.test(request.requestId)) return refusal('purchase/malformed', 'requestId must be 1–48 of A–Z, a–z, 0–9, _');
    if (!isGameId(request.game) || !findPrizeTable(request.game, request.stake)) {
      return refusal('purchase/unknown_game', `${request.game} is not sold at ${request.stake} cents`);
    }
    const rules = rulesOf(request.game);
    const pickList = request.game === 'mysteres-de-la-lampe' ? request.picks : [request.picks];
    if (!Array.isArray(pickList) || pickList.length < 1 || pickList.length > 2) {
      return refusal('picks/malformed', 'the lamp takes a list of one or two picks (colour and/or symbol)');
    }
    const picks: unknown[] = [];
    for (const raw of pickList) {
      const parsed = rules.parsePicks(raw);
      if (!parsed.ok) return parsed;
      picks.push(parsed.value);
    }
    const kindOf = (pick: unknown) => (pick as { kind?: unknown }).kind;
    if (picks.length === 2 && kindOf(picks[0]) === kindOf(picks[1])) {
      return refusal('picks/malformed', 'playing both lamp units takes one colour and one symbol');
    }
    // Sub-request ids: a retry of the whole purchase maps to the same units.
    const requestIds = picks.length === 1 ? [request.requestId] : picks.map((_, i) => `${request.requestId}-${i}`);
    const pending = await this.unfinished(player.playerId, request.game);
    const retried = pending.filter((u) => requestIds.includes(u.sale.requestId));
    if (pending.length > retried.length) {
      return refusal('purchase/unfinished_unit', `finish unit ${pending[0]!.sale.unitId} before buying another of this game`);
    }
    const units: LiveUnit[] = [];
    for (const [i, pick] of picks.entries()) {
      const result = await this.dealer.purchase({
        playerId: player.playerId,
        requestId: requestIds[i]!,
        game: request.game,
        stake: request.stake,
        now: this.now(),
        picks: JSON.stringify(pick ?? null),
      });
      if (!result.ok) {
        if (units.length === 0) return refusal(result.code, result.message);
        break; // the first lamp unit is bought and will be played; say so by returning it alone
      }
      const unit = await this.rebuild(result.sale);
      // Some reveals end at purchase (a Mine d'or grid without EXTRA): credit the prize now.
      if (unit.finished) await this.settle(unit, 'purchase');
      units.push(unit);
    }
    return { ok: true, units };
  }

  /** Applies a player's action to one of their units; logs it; settles when the reveal ends. */
  async act(playerId: string, unit: LiveUnit, rawAction: unknown): Promise<Result<{ unit: LiveUnit; events: readonly { type: string }[] }>> {
    if (unit.sale.playerId !== playerId) return refusal('action/not_yours', 'this unit belongs to another player');
    if (unit.finished) return refusal('action/finished', 'this unit is finished');
    const parsed = unit.rules.parseAction(rawAction);
    if (!parsed.ok) return parsed;
    const step = unit.rules.reduce(unit.state, parsed.value);
    if (!step.ok) return step;
    return this.commit(unit, parsed.value, 'player', step);
  }

  /** Finishes a unit on the player's behalf (abandoned, or the player asked to be done). */
  async complete(unit: LiveUnit): Promise<Result<{ unit: LiveUnit; events: readonly { type: string }[] }>> {
    if (unit.finished) return refusal('action/finished', 'this unit is finished');
    return this.commit(unit, SERVER_COMPLETE, 'server', unit.rules.complete(unit.state));
  }

  private async commit(
    unit: LiveUnit,
    action: unknown,
    by: 'player' | 'server',
    step: { state: unknown; events: readonly { type: string }[] },
  ): Promise<Result<{ unit: LiveUnit; events: readonly { type: string }[] }>> {
    const at = this.now();
    const appended = await this.log.append(unit.sale.unitId, unit.steps.length - 1, { action, at, by });
    if (!appended) return refusal('action/conflict', 'the unit moved on elsewhere; it has been reloaded');
    const finished = unit.rules.isFinished(step.state);
    const seq = unit.steps.length;
    const next: LiveUnit = {
      ...unit,
      state: step.state,
      finished,
      steps: [...unit.steps, { seq, at, by, action, events: step.events }],
    };
    if (finished) await this.settle(next, by);
    return { ok: true, unit: next, events: step.events };
  }

  private async settle(unit: LiveUnit, by: RevealEnd['by']): Promise<void> {
    const settled = await this.dealer.settle(unit.sale.unitId, this.now());
    if (!settled.ok) throw new Error(`settle ${unit.sale.unitId}: ${settled.code}`);
    // Settlement is idempotent: only the call that credited tells, so each unit is told once.
    if (settled.credited && this.onRevealEnd) {
      try {
        this.onRevealEnd({ unit, by });
      } catch (err) {
        console.error(`reveal-end listener: ${String(err)}`);
      }
    }
  }

  /** Reloads a unit from the store (after a conflict, or to resume). */
  async load(unitId: string): Promise<LiveUnit | undefined> {
    const sale = await this.dealer.getSale(unitId);
    return sale && this.rebuild(sale);
  }

  /**
   * Completes every unit untouched for `abandonAfterMs`, crediting its prize once. Returns how
   * many it finished. Safe on several processes at once: the log append is conditional and
   * settlement idempotent.
   */
  async completeAbandoned(abandonAfterMs: number): Promise<number> {
    const cutoff = this.now() - abandonAfterMs;
    const sales = await this.dealer.unsettledSales(cutoff, UNSETTLED_SCAN);
    let finished = 0;
    for (const sale of sales) {
      const unit = await this.rebuild(sale);
      const lastActivity = unit.steps[unit.steps.length - 1]!.at;
      if (lastActivity > cutoff) continue;
      if (unit.finished) {
        // Finished but not settled: a crash between the last log entry and the credit.
        await this.settle(unit, 'server');
        finished++;
        continue;
      }
      const result = await this.complete(unit);
      if (result.ok) finished++;
    }
    return finished;
  }

  async history(playerId: string, offset: number, limit: number): Promise<Sale[]> {
    return this.dealer.listSales(playerId, offset, limit);
  }

  /** A unit of the player's, replayed from the store; undefined for anyone else's. */
  async recall(playerId: string, unitId: string): Promise<RecallRecord | undefined> {
    const unit = await this.load(unitId);
    if (!unit || unit.sale.playerId !== playerId) return undefined;
    return toRecall(unit, await this.dealer.journal(playerId));
  }

  private async rebuild(sale: Sale): Promise<LiveUnit> {
    const rules = rulesOf(sale.game);
    const seed = unitSeed(await this.blockSeed(sale.blockId), sale.position);
    const log = await this.log.read(sale.unitId);
    const picks: unknown = sale.picks === '' ? undefined : (JSON.parse(sale.picks) as unknown) ?? undefined;
    const played = replay(rules, { stake: sale.stake, prize: sale.prize }, seed, picks, sale.soldAt, log);
    return { sale, rules, state: played.state, steps: played.steps, finished: played.finished };
  }

  private blockSeed(blockId: string): Promise<Uint8Array> {
    let seed = this.seeds.get(blockId);
    if (!seed) {
      seed = this.dealer.blockSeed(blockId);
      this.seeds.set(blockId, seed);
      seed.catch(() => this.seeds.delete(blockId));
    }
    return seed;
  }
}
