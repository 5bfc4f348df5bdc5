/**
 * SHA-256 (FIPS 180-4) by the compression function, on reused buffers, for the Merkle builder's
 * fixed message shapes: node's one-shot SHA-256 cost about 2 µs a call against under 1 µs a
 * compression here, and a tagged hash's first block is compressed once per block (its midstate).
 * Callers fill `W[0..15]`, `expand(W)`, set `STATE` (IV or a midstate), `compress(W)`.
 */


const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
export const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
export const W = new Int32Array(64);
export const STATE = new Int32Array(8);

export function expand(w: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15]!;
    const b = w[t - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
}

/** One compression of the 64 expanded words `w` into STATE. */
export function compress(w: Int32Array): void {
  const h0 = STATE[0]!, h1 = STATE[1]!, h2 = STATE[2]!, h3 = STATE[3]!;
  const h4 = STATE[4]!, h5 = STATE[5]!, h6 = STATE[6]!, h7 = STATE[7]!;
  let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  STATE[0] = h0 + a; STATE[1] = h1 + b; STATE[2] = h2 + c; STATE[3] = h3 + d;
  STATE[4] = h4 + e; STATE[5] = h5 + f; STATE[6] = h6 + g; STATE[7] = h7 + h;
}

/** The padding block of a 64-byte message, expanded once: it is the same for every node. */
export const NODE_PADDING = new Int32Array(64);
NODE_PADDING[0] = 0x80000000 | 0;
NODE_PADDING[15] = 512;
expand(NODE_PADDING);

export function be32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
}

export function writeState(out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) {
    const x = STATE[i]!;
    out[at + 4 * i] = x >>> 24;
    out[at + 4 * i + 1] = (x >>> 16) & 255;
    out[at + 4 * i + 2] = (x >>> 8) & 255;
    out[at + 4 * i + 3] = x & 255;
  }
}

/** The state after compressing one 64-byte block from the IV: a tagged hash's fixed first block. */
export function midstateOf(block: Uint8Array): Int32Array {
  for (let k = 0; k < 16; k++) W[k] = be32(block, 4 * k);
  expand(W);
  STATE.set(IV);
  compress(W);
  return STATE.slice();
}
