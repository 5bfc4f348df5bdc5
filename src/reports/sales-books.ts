import type { Cents } from '../money';
import type { GameId, PrizeTable } from '../games/types';
import type { DealerStore, EmissionInfo, Sale } from '../dealer/types';
import { payoutBand, type PayoutBand } from './payout-band';

/** What the sales reports read of the dealer: the emissions, and each block's sales by position. */
export type ReportedSales = Pick<DealerStore, 'emissions' | 'offloading' | 'sales'>;

/** The day of a time in Europe/Paris, `YYYY-MM-DD`: the operator's day, whatever the server's zone. */
const PARIS_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
const HOUR = 3_600_000;
/** Sales read per call of the dealer. */
const PAGE = 1_000;

interface Totals {
  units: number;
  stakes: Cents;
  prizes: Cents;
}

interface DayBooks extends Totals {
  readonly game: GameId;
  readonly stake: Cents;
  readonly day: string;
  /** Units of the day per block: each block's own draw (payout-band.ts). */
  readonly perBlock: Map<string, number>;
}

interface HourBooks extends Totals {
  readonly game: GameId;
  readonly stake: Cents;
  readonly hour: number;
}

interface PlayerBooks extends Totals {
  readonly playerId: string;
}

/** One game and price on one day (Europe/Paris), with its payout against the table's and the band. */
export interface DayRow {
  readonly day: string;
  /** Each emission of a game and price has its rows (a day may see one sell out and the next open). */
  readonly emissionId: string;
  readonly game: GameId;
  readonly stake: Cents;
  readonly units: number;
  readonly stakes: Cents;
  /** The prizes of the units sold that day (owed from the sale, credited when each ends). */
  readonly prizes: Cents;
  /** Gross gaming revenue: stakes − prizes. */
  readonly ggr: Cents;
  /** prizes / stakes, and the prize table's (its prizes over its block's stakes). */
  readonly payout: number;
  readonly tablePayout: number;
  /**
   * The band is computed for the day's units as they were when it was last computed (at most
   * BAND_AGE_MS ago, while units keep selling): `bandUnits` of them, which paid `bandPayout`.
   * Their expected prizes and the band of their prizes (payout-band.ts), in cents and as payouts.
   */
  readonly bandUnits: number;
  readonly bandPayout: number;
  readonly expectedPrizes: Cents;
  readonly bandLow: Cents;
  readonly bandHigh: Cents;
  readonly payoutLow: number;
  readonly payoutHigh: number;
  readonly bandMethod: PayoutBand['method'];
}

/** A band and the day's figures it was computed for. */
interface BandSnapshot extends Totals {
  readonly drawn: string;
  readonly band: PayoutBand;
  readonly at: number;
}

/**
 * A day's band is computed again at most this often while its units keep selling: up to about
 * a second of CPU each time on a busy day (payout-band.ts).
 */
const BAND_AGE_MS = 60_000;

export interface HourRow extends Totals {
  /** The hour's start, ISO (UTC); the console shows it in Europe/Paris. */
  readonly hour: string;
  readonly game: GameId;
  readonly stake: Cents;
}

export interface PlayerRow {
  readonly playerId: string;
  readonly units: number;
  /** Staked and won (the prizes of the units bought), and won − staked: the player's result. */
  readonly staked: Cents;
  readonly won: Cents;
  readonly net: Cents;
}

export function parisDay(at: number): string {
  return PARIS_DAY.format(at);
}

function tablePayout(table: PrizeTable): number {
  return table.tiers.reduce((sum, t) => sum + t.prize * t.count, 0) / (table.blockSize * table.stake);
}

function add(totals: Totals, sale: Sale): void {
  totals.units++;
  totals.stakes += sale.stake;
  totals.prizes += sale.prize;
}

/**
 * The sales books the operator's reports are computed from: every sale the dealer recorded,
 * read block by block in position order and summed per game × price × day (Europe/Paris), per
 * hour and per player. A sale's price, prize, time and player never change once recorded, so
 * each position is read once: `refresh` reads only the positions sold since the last one (an
 * offloaded block's from its files, through `getSale`). A unit the embedded store forgot
 * before it was read (docs/operations.md) is missing here, and counted in `missing`.
 */
export class SalesBooks {
  private readonly read = new Map<string, number>();
  private readonly days = new Map<string, DayBooks>();
  private readonly hours = new Map<string, HourBooks>();
  private readonly players = new Map<string, PlayerBooks>();
  private readonly tables = new Map<string, PrizeTable>();
  /** The band of each emission and day, and the one being computed. */
  private readonly bands = new Map<string, BandSnapshot>();
  private readonly computing = new Map<string, Promise<BandSnapshot>>();
  private readonly dayOfHour = new Map<number, string>();
  private running: Promise<EmissionInfo[]> | undefined;
  missing = 0;

  /** `clock`: only to tell a band's age (BAND_AGE_MS); `bandAgeMs`: tests compute every band afresh. */
  constructor(
    private readonly dealer: ReportedSales,
    private readonly clock: () => number = Date.now,
    private readonly bandAgeMs = BAND_AGE_MS,
  ) {}

  /** Reads what was sold since the last refresh; calls at the same time share one reading. */
  refresh(): Promise<EmissionInfo[]> {
    this.running ??= this.readNew().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async readNew(): Promise<EmissionInfo[]> {
    const emissions = await this.dealer.emissions.listEmissions();
    for (const emission of emissions) {
      this.tables.set(emission.emissionId, emission.table);
      for (const block of emission.blocks) {
        let from = this.read.get(block.blockId) ?? 0;
        while (from < block.sold) {
          const limit = Math.min(PAGE, block.sold - from);
          const sales = block.offloadedTo === undefined
            ? await this.dealer.offloading.blockSales(block.blockId, from, limit)
            : await Promise.all(Array.from({ length: limit }, (_, i) => this.dealer.sales.getSale(`${block.blockId}:${from + i}`)));
          const kept = sales.filter((s): s is Sale => s !== undefined);
          this.missing += limit - kept.length;
          for (const sale of kept) this.book(emission.emissionId, sale);
          from += limit;
        }
        this.read.set(block.blockId, from);
      }
    }
    return emissions;
  }

  private book(emissionId: string, sale: Sale): void {
    const hour = Math.floor(sale.soldAt / HOUR) * HOUR;
    let day = this.dayOfHour.get(hour);
    if (day === undefined) this.dayOfHour.set(hour, (day = parisDay(hour)));
    const dayKey = `${emissionId}|${day}`;
    const dayBooks = this.days.get(dayKey) ?? { game: sale.game, stake: sale.stake, day, units: 0, stakes: 0, prizes: 0, perBlock: new Map<string, number>() };
    add(dayBooks, sale);
    dayBooks.perBlock.set(sale.blockId, (dayBooks.perBlock.get(sale.blockId) ?? 0) + 1);
    this.days.set(dayKey, dayBooks);
    const hourKey = `${sale.game}|${sale.stake}|${hour}`;
    const hourBooks = this.hours.get(hourKey) ?? { game: sale.game, stake: sale.stake, hour, units: 0, stakes: 0, prizes: 0 };
    add(hourBooks, sale);
    this.hours.set(hourKey, hourBooks);
    const player = this.players.get(sale.playerId) ?? { playerId: sale.playerId, units: 0, stakes: 0, prizes: 0 };
    add(player, sale);
    this.players.set(sale.playerId, player);
  }

  /** Per emission (a game and price) and day, newest day first, then by game and price. */
  async dayRows(): Promise<DayRow[]> {
    const rows = await Promise.all([...this.days].map(([key, books]) => this.dayRow(key.slice(0, key.lastIndexOf('|')), books)));
    return rows.sort((a, b) => b.day.localeCompare(a.day) || a.game.localeCompare(b.game) || a.stake - b.stake);
  }

  private async dayRow(emissionId: string, books: DayBooks): Promise<DayRow> {
    const table = this.tables.get(emissionId)!;
    const { band, ...banded } = await this.bandOf(`${emissionId}|${books.day}`, table, books);
    const { game, stake, day, units, stakes, prizes } = books;
    return {
      day, emissionId, game, stake, units, stakes, prizes,
      ggr: stakes - prizes,
      payout: prizes / stakes,
      tablePayout: tablePayout(table),
      bandUnits: banded.units,
      bandPayout: banded.prizes / banded.stakes,
      expectedPrizes: band.expected,
      bandLow: band.low,
      bandHigh: band.high,
      payoutLow: band.low / banded.stakes,
      payoutHigh: band.high / banded.stakes,
      bandMethod: band.method,
    };
  }

  /** The day's band: the one computed last while it is younger than the age allowed, else computed now. */
  private async bandOf(key: string, table: PrizeTable, books: DayBooks): Promise<BandSnapshot> {
    const drawn = [...books.perBlock].map(([block, units]) => `${block}:${units}`).join(',');
    const last = this.bands.get(key);
    if (last && (last.drawn === drawn || this.clock() - last.at < this.bandAgeMs)) return last;
    const running = this.computing.get(key);
    if (running) return running;
    const { units, stakes, prizes } = books;
    const computed = payoutBand([...books.perBlock.values()].map((n) => ({ table, units: n })))
      .then((band) => {
        const snapshot = { drawn, band, at: this.clock(), units, stakes, prizes };
        this.bands.set(key, snapshot);
        return snapshot;
      })
      .finally(() => this.computing.delete(key));
    this.computing.set(key, computed);
    return computed;
  }

  /** Per game, price and hour, oldest first. */
  hourRows(): HourRow[] {
    return [...this.hours.values()].sort((a, b) => a.hour - b.hour || a.game.localeCompare(b.game) || a.stake - b.stake)
      .map(({ hour, game, stake, units, stakes, prizes }) => ({ hour: new Date(hour).toISOString(), game, stake, units, stakes, prizes }));
  }

  /** Per player, the most staked first. */
  playerRows(): PlayerRow[] {
    return [...this.players.values()].sort((a, b) => b.stakes - a.stakes || a.playerId.localeCompare(b.playerId))
      .map(({ playerId, units, stakes, prizes }) => ({ playerId, units, staked: stakes, won: prizes, net: prizes - stakes }));
  }
}
