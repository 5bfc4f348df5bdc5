import { chacha20Block, wordsLE } from './chacha20';

/**
 * The deterministic random source of printing and of scenarios: the ChaCha20 keystream
 * (RFC 8439) under a 32-byte seed as key, a 12-byte nonce naming the use, block counter from 0,
 * read as little-endian 32-bit words. Seeds come from a CSPRNG (see src/fairness/printing.ts), so
 * the stream is unpredictable without the seed and reproducible with it. `Math.random` is never
 * involved.
 */
export class Rng {
  private readonly key: Uint32Array;
  private readonly nonce: Uint32Array;
  private readonly block = new Uint32Array(16);
  private counter = 0;
  private index = 16;

  constructor(seed: Uint8Array, nonce: Uint8Array = new Uint8Array(12)) {
    if (seed.length !== 32) throw new RangeError(`seed must be 32 bytes, got ${seed.length}`);
    if (nonce.length !== 12) throw new RangeError(`nonce must be 12 bytes, got ${nonce.length}`);
    this.key = wordsLE(seed);
    this.nonce = wordsLE(nonce);
  }

  /** The next 32-bit word of the keystream, as an unsigned integer. */
  nextU32(): number {
    if (this.index === 16) {
      if (this.counter > 0xffffffff) throw new RangeError('keystream exhausted');
      chacha20Block(this.key, this.counter++, this.nonce, this.block);
      this.index = 0;
    }
    return this.block[this.index++]!;
  }

  /** A uniform integer in [0, n), unbiased (rejection sampling), for 1 <= n <= 2^32. */
  below(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) throw new RangeError(`below(${n})`);
    // Reject the top partial range of 2^32 so every residue is equally likely.
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /** A uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /** True with probability numerator/denominator (integers, so no float thresholds). */
  chance(numerator: number, denominator: number): boolean {
    return this.below(denominator) < numerator;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.below(items.length)]!;
  }

  /** Fisher–Yates shuffle in place (Durstenfeld), returning the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    }
    return items;
  }

  /** `k` distinct items of `items`, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    if (k > items.length) throw new RangeError(`sample ${k} of ${items.length}`);
    const copy = items.slice();
    for (let i = 0; i < k; i++) {
      const j = i + this.below(copy.length - i);
      const t = copy[i]!;
      copy[i] = copy[j]!;
      copy[j] = t;
    }
    return copy.slice(0, k);
  }
}

/** A 12-byte nonce naming a use of a seed, so two uses never share a keystream. */
export function nonceFor(label: string): Uint8Array {
  const bytes = new TextEncoder().encode(label);
  if (bytes.length > 12) throw new RangeError(`nonce label longer than 12 bytes: ${label}`);
  const nonce = new Uint8Array(12);
  nonce.set(bytes);
  return nonce;
}
