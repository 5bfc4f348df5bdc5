import type { Cents } from '../../money';
import { gamePrice } from '../../ids';
import type { OutboxStream } from '../outbox';

/**
 * Every Redis key of the server's dealing and play, from one prefix: the one place that names
 * them. Three families, each under one `{hash tag}`:
 * - a lane (the blocks one lane of one game at one price deals, one after another; the tag
 *   says `seq` for the sequence of blocks, as keys always did): `<prefix>:{seq:<game>:<stake>}:…`
 *   (lane 0) or `<prefix>:{seq:<game>:<stake>:<lane>}:…` (lane ≥ 1) holds the lane's current
 *   emission, the emissions' dealing state, the printed blocks and their sales; an emission of
 *   L lanes deals block i on lane i mod L (docs/dealer.md, "Lanes");
 * - a player: `<prefix>:{player:<id>}:…` holds the wallet, the deposits and the journal;
 * - a unit: `<prefix>:actions:{<unitId>}`, its action log.
 * The one-script purchase touches one lane and one player together (one Redis); the
 * per-slot protocol touches one family per script, so it runs on a Redis Cluster (docs/dealer.md).
 *
 * The Lua scripts get the lane's base (`<prefix>:{seq:…}:`) as a key and build the
 * emission and block keys from it with the same names as `emissionKey` and `blockKeys` below,
 * because the block a purchase lands in is only known inside the script.
 */

const PREFIX = /^[A-Za-z0-9_.:-]{0,64}$/;
/** Shards of the pending index (`pendingIndex`). */
export const PENDING_SHARDS = 16;
/**
 * Shards of the archive's money outbox on the per-slot protocol (`archiveShard`): each its own
 * stream, slot and chain, so that no one slot takes every settlement's relay.
 */
export const ARCHIVE_SHARDS = 16;
/** Lanes of one emission at most (`REDIS_SEQUENCE_LANES`). */
export const MAX_LANES = 64;

/** FNV-1a of a text's UTF-16 code units: spreads ids over shards and lanes. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The lane of an emission of `lanes` lanes that deals block `index`. */
export function laneOfBlock(index: number, lanes: number): number {
  return index % lanes;
}

/**
 * The first lane a purchase tries (then the next ones, wrapping): a function of the request
 * alone, so that a retry walks the lanes in the same order and meets the lane that dealt it.
 */
export function firstLane(playerId: string, requestId: string, lanes: number): number {
  return lanes === 1 ? 0 : fnv1a(`${playerId}|${requestId}`) % lanes;
}

/** One lane of a game at a price as this process's maps name it (not a key): `<game>:<stake>:<lane>`. */
export function laneName(game: string, stake: Cents, lane: number): string {
  return `${gamePrice(game, stake)}:${lane}`;
}

/** An emission as the emissions' index holds it: `<game>:<stake>`, with `:<lanes>` when more than one. */
export interface IndexedEmission {
  readonly game: string;
  readonly stake: Cents;
  /** `<game>:<stake>`. */
  readonly gamePrice: string;
  readonly lanes: number;
}

export function indexedEmission(game: string, stake: Cents, lanes: number): string {
  return lanes === 1 ? gamePrice(game, stake) : `${gamePrice(game, stake)}:${lanes}`;
}

export function parseIndexedEmission(value: string): IndexedEmission {
  const [game, stake, lanes] = value.split(':');
  return { game: game!, stake: Number(stake), gamePrice: gamePrice(game!, Number(stake)), lanes: lanes === undefined ? 1 : Number(lanes) };
}

export interface BlockKeys {
  /** String: the printed block, one byte per unit (tier id). */
  readonly units: string;
  /** Hash: state, size, commitment, seed, t<tier> (units sold per tier), printedAt/openedAt/closedAt. */
  readonly info: string;
  /** Hash: position → sale record (records.ts, lua/includes/saleRecord.lua). */
  readonly sales: string;
  /** Hash: position → settlement time, for settled units. */
  readonly settled: string;
  /** Hash: page → `<root hex>|<publishedAt>`, the Merkle page roots published (scheme 2). */
  readonly pages: string;
  /**
   * String, expiring: the dealer hashing a page's tree to publish its root (`pages.ts`), so
   * that the other dealers wait for that root instead of hashing the page too.
   */
  pageClaim(page: number): string;
}

export interface LaneKeys {
  /** The base the scripts build emission and block keys from. */
  readonly base: string;
  /** String: id of the lane's current emission. */
  readonly current: string;
  /** Sorted set: unsettled unit ids of this lane, scored by sale time. */
  readonly unsettled: string;
  /**
   * Hash of one idempotency window (number `window` = ⌊time / W⌋): `<playerId>|<requestId>` →
   * unitId for the purchases of that window; it expires 2 W after the window began.
   */
  requests(window: number): string;
}

export interface PlayerKeys {
  /**
   * Hash: balance; u:<unitId> → sale time for each unit bought and not settled yet (the units in
   * play: few, so listing them reads this hash whole); n:<game> → how many of them are of that
   * game ("finish your unit first"); staked → the sum of their stakes (what the player is shown
   * as held, kept by the scripts that put units in play and take them out); per-slot protocol:
   * held → the stakes of pending purchases, e:<unitId> → a withdrawal threshold event of that
   * unit's credit not yet relayed to `events`; p:… the player's protection
   * (src/protection/lua/includes/protection.lua), there so that the purchase step checks it on the wallet's slot.
   */
  readonly wallet: string;
  /**
   * Hash: deposit or withdrawal ref → `<seq>|<journal line>` (lua/includes/fundingRecord.lua),
   * the idempotency record of each, bound to its amount by the line.
   */
  readonly deposits: string;
  /**
   * List: journal lines `kind|amount|balance|at|ref`, seq = 1-based index. Its `stake` lines
   * (ref = unit id) are also the player's history: one record per purchase, not two.
   */
  readonly journal: string;
  /** List: the protection journal, JSON `ProtectionChange` lines, newest first (changeProtection-3.lua). */
  readonly protection: string;
  /**
   * Hash (per-slot protocol): `<game>:<stake>|<requestId>` → `<balance before>|<time>|<picks>`,
   * the purchases whose stake is held and whose unit is not dealt or not debited yet.
   */
  readonly pending: string;
  /**
   * Hash of one idempotency window (per-slot protocol): `<game>:<stake>|<requestId>` → unitId,
   * the purchases finished in that window; it expires 2 W after the window began.
   */
  requests(window: number): string;
}

export class DealerKeys {
  /** Hash: emissionId → `<game>:<stake>[:<lanes>]` (`indexedEmission`), the index of all emissions (for listing). */
  readonly emissions: string;

  /** The prefix with its separator: `lottery` gives keys `lottery:…`. */
  readonly prefix: string;

  /** Hash: blockId → the files its units were offloaded to (src/offload/unit-files.ts), for the action log's reads; stored under its first name, `archives`. */
  readonly offloadedBlocks: string;

  /**
   * Stream: the operator's events (field `e`: lua/includes/thresholdEvent.lua), read with
   * `GET /admin/events`; ids are the stream's.
   */
  readonly events: string;

  /**
   * The log of page roots (page-log.ts), one for the deployment under its own hash tag: `leaves`
   * (list of leaf texts) and `index` (hash: `<blockId>:<page>` → leaf index), appendLeaf-2.lua.
   */
  readonly pageLog: { readonly leaves: string; readonly index: string };

  constructor(prefix: string) {
    if (!PREFIX.test(prefix)) throw new RangeError(`Redis prefix must be 0–64 of [A-Za-z0-9_.:-]: ${prefix}`);
    this.prefix = prefix === '' || prefix.endsWith(':') ? prefix : `${prefix}:`;
    this.emissions = `${this.prefix}emissions`;
    this.offloadedBlocks = `${this.prefix}archives`;
    this.events = `${this.prefix}{events}:stream`;
    this.pageLog = { leaves: `${this.prefix}{page-log}:leaves`, index: `${this.prefix}{page-log}:index` };
  }

  /**
   * Hash (per-slot protocol), in the events' slot: `<playerId>|<unitId>` → stream id, the events
   * relayed from the buyers' wallets whose time falls in idempotency window `window`
   * (relayEvent-2.lua); it expires 2 W after the window began.
   */
  relayedEvents(window: number): string {
    return `${this.prefix}{events}:relayed:${window}`;
  }

  /**
   * Stream: one stream of the regulator's archive's outbox (src/dealer/outbox.ts), under its own
   * tag: on one Redis every money script writes `money` in the step of its journal line; an
   * archive shard's `money-<k>` is `<prefix>{archive:<k>}:money` (`archiveShard`).
   */
  outbox(stream: OutboxStream): string {
    const shard = /^money-(\d+)$/.exec(stream);
    return shard ? `${this.prefix}{archive:${shard[1]}}:money` : `${this.prefix}{archive}:${stream}`;
  }

  /**
   * Stream (per-slot protocol): the archive's money entries of one player, in the player's
   * slot, each written by the script of its journal line (stakes, prizes, deposits,
   * withdrawals, protection changes) and relayed from there to the player's archive shard
   * (relayArchive-3.lua; docs/archive.md, "On a Redis Cluster").
   */
  playerOutbox(playerId: string): string {
    return `${this.player(playerId).journal.slice(0, -'journal'.length)}archive`;
  }

  /**
   * The archive shard of a player (per-slot protocol): its outbox stream's name
   * (`money-<k>`, k the FNV-1a of the id mod ARCHIVE_SHARDS, as the pending index's shard) and
   * the hash of its relay marks of idempotency window `window` (relayArchive-3.lua:
   * playerId → the last entry id relayed; it expires 2 W after the window began).
   */
  archiveShard(playerId: string): { stream: OutboxStream; marks(window: number): string } {
    const k = fnv1a(playerId) % ARCHIVE_SHARDS;
    return { stream: `money-${k}`, marks: (window) => `${this.prefix}{archive:${k}}:relayed:${window}` };
  }

  /** Glob of every lane's request-id hashes, of any window (what the migration to a cluster scans). */
  get laneRequestsGlob(): string {
    return `${this.prefix}{seq:*}:requests:*`;
  }

  /**
   * What a lane's request-id key names: `<prefix>{seq:<game>:<stake>[:<lane>]}:requests:<window>`
   * (only the tag's first two parts are read: every lane of a game and price gives the same).
   */
  parseLaneRequests(key: string): { game: string; stake: Cents; window: number } | undefined {
    const prefix = this.prefix.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
    const m = new RegExp(`^${prefix}\\{seq:([^:}]+):(\\d+)(?::[^}]*)?\\}:requests:(\\d+)$`).exec(key);
    return m ? { game: m[1]!, stake: Number(m[2]), window: Number(m[3]) } : undefined;
  }

  /** Lane 0 holds the keys of a one-lane emission, so that layout needed no migration. */
  lane(game: string, stake: Cents, lane = 0): LaneKeys {
    const base = lane === 0 ? `${this.prefix}{seq:${gamePrice(game, stake)}}:` : `${this.prefix}{seq:${gamePrice(game, stake)}:${lane}}:`;
    return {
      base,
      current: `${base}current`,
      unsettled: `${base}unsettled`,
      requests: (window) => `${base}requests:${window}`,
    };
  }

  /** Hash: the emission's table, block count, lanes and its lane's dealing state (lane, index, cursor, state). */
  emissionKey(game: string, stake: Cents, emissionId: string, lane = 0): string {
    return `${this.lane(game, stake, lane).base}emission:${emissionId}`;
  }

  /** The keys of a block, on the lane that deals it (`laneOfBlock`). */
  blockKeys(game: string, stake: Cents, blockId: string, lane = 0): BlockKeys {
    const block = `${this.lane(game, stake, lane).base}block:${blockId}`;
    return {
      units: `${block}:units`,
      info: `${block}:info`,
      sales: `${block}:sales`,
      settled: `${block}:settled`,
      pages: `${block}:pages`,
      pageClaim: (page) => `${block}:hashing:${page}`,
    };
  }

  player(playerId: string): PlayerKeys {
    const base = `${this.prefix}{player:${playerId}}:`;
    return {
      wallet: `${base}wallet`,
      deposits: `${base}deposits`,
      journal: `${base}journal`,
      pending: `${base}pending`,
      protection: `${base}protection`,
      requests: (window) => `${base}requests:${window}`,
    };
  }

  /**
   * Sorted set (per-slot protocol): playerId → the time of the player's latest purchase, for the
   * players whose id falls in shard `shard` (0 … PENDING_SHARDS − 1): where the recovery looks
   * for purchases left pending. Sharded so that no one slot takes every purchase's write.
   */
  pendingIndex(shard: number): string {
    return `${this.prefix}{pending:${shard}}`;
  }

  /** The shard of `playerId` in the pending index (FNV-1a of its UTF-16 code units). */
  pendingShard(playerId: string): number {
    return fnv1a(playerId) % PENDING_SHARDS;
  }

  /** List: a unit's action log (src/action-log), JSON entries in order; one hash tag per unit. */
  actions(unitId: string): string {
    return `${this.prefix}actions:{${unitId}}`;
  }
}
