// Shared by the PII corpus test and bench/pii.ts: both build their samples from a seed, so every
// run sees the same texts, and compute check digits here rather than with the detector's own code.

/** mulberry32: small, seeded, good enough to vary the samples. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const digits = (n: number) => Array.from({ length: n }, () => String(int(10))).join('');
  const chars = (n: number, alphabet: string) =>
    Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  return { next, int, pick, digits, chars };
}

/** A CPF's 11 digits: the 9 given and their two check digits (mod 11). */
export function cpfDigits(base9: string): string {
  let d = base9;
  for (const n of [9, 10]) {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += Number(d[k]) * (n + 1 - k);
    const rest = (sum * 10) % 11;
    d += String(rest === 10 ? 0 : rest);
  }
  return d;
}
