import { randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` uniformly random base62 characters (crypto RNG, no modulo bias). For ids made on hot paths:
 * `randomInt` draws from a cached pool, while each `randomBytes` call asks the kernel — about 10 µs on
 * a virtual machine, a third of an anonymous visitor's session call before this was used there.
 */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}
