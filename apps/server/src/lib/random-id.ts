import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the kernel 4 KB at a time: each `randomBytes` call asks it — about 10 µs
 * on a virtual machine — and `randomInt`, which pools, still cost ~60 ns a character; an anonymous
 * visitor's session call draws 46 characters.
 */
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

function nextByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] as number;
}

/** `bytes` random bytes (at most the pool's size) as base64url: secrets made on hot paths. */
export function randomBase64url(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomBase64url draws at most ${pool.length} bytes`);
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const out = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return out;
}

/**
 * `length` uniformly random base62 characters (crypto RNG, no modulo bias: the low six bits of a
 * byte, drawn again when they are 62 or 63). For ids made on hot paths.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const six = nextByte() & 63;
    if (six < 62) out += BASE62[six];
  }
  return out;
}
