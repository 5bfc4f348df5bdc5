import { defineScripts, type RedisClient, type RunScript } from '../../redis-scripts/loader';
import { FINAL_STATES, type WalletTransactions, type WalletTx, type WalletTxPatch, type WalletTxState } from './wallet-transactions';

const LUA = new URL('./lua/', import.meta.url);
type Script = 'addWalletTx' | 'moveWalletTx' | 'claimDebitSlot' | 'releaseDebitSlot';

/** The 16 shards of the outbox: a record and its shard's indexes share a hash tag (one slot on a cluster). */
const SHARDS = '0123456789abcdef';

/** A record as a hash: every field as text. */
function encode(tx: WalletTx): string[] {
  return Object.entries(tx).flatMap(([field, value]) => [field, String(value)]);
}

function decode(flat: unknown[]): WalletTx | undefined {
  if (flat.length === 0) return undefined;
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) f[String(flat[i])] = String(flat[i + 1]);
  return {
    id: f['id']!,
    kind: f['kind'] as WalletTx['kind'],
    player: f['player']!,
    round: f['round']!,
    game: f['game']!,
    amount: Number(f['amount']),
    state: f['state'] as WalletTxState,
    createdAt: Number(f['createdAt']),
    updatedAt: Number(f['updatedAt']),
    attempts: Number(f['attempts']),
    nextAttemptAt: Number(f['nextAttemptAt']),
    unitId: f['unitId'] ?? '',
    purchase: f['purchase'] ?? '',
    lastError: f['lastError'] ?? '',
  };
}

/**
 * The outbox on Redis or a Redis Cluster: one hash per record, two sorted sets per shard
 * (addWalletTx-3.lua, moveWalletTx-2.lua); a key per player's debit slot, alive on Redis's
 * clock (claimDebitSlot-1.lua, releaseDebitSlot-1.lua).
 */
export class RedisWalletTransactions implements WalletTransactions {
  private readonly run: RunScript<Script>;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.run = defineScripts<Script>(redis, LUA, 'wallet');
  }

  private shardOf(id: string): string {
    // Ids are `<d|c|r>-<32 hex>`: the first hex digit picks the shard.
    const shard = id.charAt(2);
    if (!SHARDS.includes(shard) || shard === '') throw new RangeError(`not an outbox record id: ${id}`);
    return `${this.prefix}:wtx:{w${shard}}`;
  }

  async add(tx: WalletTx): Promise<boolean> {
    const base = this.shardOf(tx.id);
    const added = await this.run('addWalletTx', [`${base}:tx:${tx.id}`, `${base}:due`, `${base}:all`], [tx.id, tx.nextAttemptAt, tx.createdAt, ...encode(tx)]);
    return Number(added) === 1;
  }

  async get(id: string): Promise<WalletTx | undefined> {
    return decode(await this.redis.hgetall(`${this.shardOf(id)}:tx:${id}`).then((h) => Object.entries(h).flat()));
  }

  async move(id: string, from: readonly WalletTxState[], to: WalletTxState, patch: WalletTxPatch & { readonly updatedAt: number }, attempts?: number): Promise<WalletTx | undefined> {
    const base = this.shardOf(id);
    const pairs = Object.entries(patch).flatMap(([field, value]) => [field, String(value)]);
    const reply = await this.run('moveWalletTx', [`${base}:tx:${id}`, `${base}:due`], [id, from.join(','), attempts ?? '', to, FINAL_STATES.includes(to) ? '1' : '', ...pairs]);
    if (!Array.isArray(reply)) throw new Error(`moveWalletTx: unexpected reply ${String(reply)}`);
    return decode(reply);
  }

  async due(now: number, limit: number): Promise<WalletTx[]> {
    const found: WalletTx[] = [];
    for (const shard of SHARDS) {
      if (found.length >= limit) break;
      const base = `${this.prefix}:wtx:{w${shard}}`;
      const ids = await this.redis.zrangebyscore(`${base}:due`, '-inf', now, 'LIMIT', 0, limit - found.length);
      found.push(...(await this.read(ids)));
    }
    return found;
  }

  async earliestDue(): Promise<number | undefined> {
    // The first of each shard's due index: 16 reads of one entry.
    const firsts = await Promise.all([...SHARDS].map((shard) => this.redis.zrange(`${this.prefix}:wtx:{w${shard}}:due`, 0, 0, 'WITHSCORES')));
    const scores = firsts.flatMap((pair) => (pair.length === 2 ? [Number(pair[1])] : []));
    return scores.length === 0 ? undefined : Math.min(...scores);
  }

  async created(from: number, to: number): Promise<WalletTx[]> {
    const found: WalletTx[] = [];
    for (const shard of SHARDS) {
      const ids = await this.redis.zrangebyscore(`${this.prefix}:wtx:{w${shard}}:all`, from, `(${to}`);
      found.push(...(await this.read(ids)));
    }
    return found.sort((a, b) => a.createdAt - b.createdAt);
  }

  async claimDebitSlot(player: string, id: string, _now: number, ttlMs: number): Promise<boolean> {
    return Number(await this.run('claimDebitSlot', [this.slotOf(player)], [id, Math.max(1, Math.ceil(ttlMs))])) === 1;
  }

  async releaseDebitSlot(player: string, id: string): Promise<void> {
    await this.run('releaseDebitSlot', [this.slotOf(player)], [id]);
  }

  private slotOf(player: string): string {
    return `${this.prefix}:wtx:slot:${player}`;
  }

  private async read(ids: readonly string[]): Promise<WalletTx[]> {
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((tx): tx is WalletTx => tx !== undefined);
  }
}
