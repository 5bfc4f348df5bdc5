import type { Cents } from '../money';

/**
 * Every Redis key of the dealer, from one prefix. Two families, each under one `{hash tag}`:
 * - a block sequence (one game at one price): `<prefix>:{seq:<game>:<stake>}:…` holds the
 *   sequence's current emission, the emissions' state, the printed blocks and their sales;
 * - a player: `<prefix>:{player:<id>}:…` holds the wallet, the journal and the sales lists.
 * A purchase touches one sequence and one player together: on a Redis Cluster both would have
 * to share a slot (we run a single primary; see docs/dealer.md).
 *
 * The Lua scripts get the sequence's base (`<prefix>:{seq:…}:`) as a key and build the
 * emission and block keys from it with the same names as `emissionKey` and `blockKeys` below,
 * because the block a purchase lands in is only known inside the script.
 */

const PREFIX = /^[A-Za-z0-9_.:-]{0,64}$/;

export interface BlockKeys {
  /** String: the printed block, one byte per unit (tier id). */
  readonly units: string;
  /** Hash: state, size, commitment, seed, t<tier> (units sold per tier), printedAt/openedAt/closedAt. */
  readonly info: string;
  /** Hash: position → sale record (see purchaseUnit-8.lua for its layout). */
  readonly sales: string;
  /** Hash: position → settlement time, for settled units. */
  readonly settled: string;
}

export interface SequenceKeys {
  /** The base the scripts build emission and block keys from. */
  readonly base: string;
  /** String: id of the sequence's current emission. */
  readonly current: string;
  /** Sorted set: unsettled unit ids of this sequence, scored by sale time. */
  readonly unsettled: string;
}

export interface PlayerKeys {
  /**
   * Hash: balance; r:<requestId> → unitId, the idempotency record of each purchase;
   * d:<ref> → journal seq, that of each deposit.
   */
  readonly wallet: string;
  /** List: journal lines `kind|amount|balance|at|ref`, seq = 1-based index. */
  readonly journal: string;
  /** List: the player's unit ids, newest first. */
  readonly sales: string;
  /** Set: the player's unsettled unit ids (few: the units being played). */
  readonly unsettled: string;
}

export class DealerKeys {
  /** Hash: emissionId → `<game>:<stake>`, the index of all emissions (for listing). */
  readonly emissions: string;

  /** The prefix with its separator: `lottery` gives keys `lottery:…`. */
  readonly prefix: string;

  constructor(prefix: string) {
    if (!PREFIX.test(prefix)) throw new RangeError(`Redis prefix must be 0–64 of [A-Za-z0-9_.:-]: ${prefix}`);
    this.prefix = prefix === '' || prefix.endsWith(':') ? prefix : `${prefix}:`;
    this.emissions = `${this.prefix}emissions`;
  }

  sequence(game: string, stake: Cents): SequenceKeys {
    const base = `${this.prefix}{seq:${game}:${stake}}:`;
    return { base, current: `${base}current`, unsettled: `${base}unsettled` };
  }

  /** Hash: the emission's table, block count and dealing state (index, cursor, state). */
  emissionKey(game: string, stake: Cents, emissionId: string): string {
    return `${this.sequence(game, stake).base}emission:${emissionId}`;
  }

  blockKeys(game: string, stake: Cents, blockId: string): BlockKeys {
    const block = `${this.sequence(game, stake).base}block:${blockId}`;
    return { units: `${block}:units`, info: `${block}:info`, sales: `${block}:sales`, settled: `${block}:settled` };
  }

  player(playerId: string): PlayerKeys {
    const base = `${this.prefix}{player:${playerId}}:`;
    return { wallet: `${base}wallet`, journal: `${base}journal`, sales: `${base}sales`, unsettled: `${base}unsettled` };
  }
}
