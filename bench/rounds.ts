// Figures taken over rounds: a ratio is measured in several rounds, its two sides interleaved so a
// change in the machine's load hits both alike, and reported as min / median / max of the rounds.

export interface Spread {
  min: number;
  median: number;
  max: number;
  /** Each round's figure, in the order taken. */
  rounds: number[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  return {
    min: round2(s[0] ?? Number.NaN),
    median: round2(median),
    max: round2(s.at(-1) ?? Number.NaN),
    rounds: xs.map(round2),
  };
}

/** "12.3 (min 11.9, max 14.1)" with a unit after each figure. */
export function describeSpread(s: Spread, unit = '', digits = 1): string {
  const f = (n: number) => `${n.toFixed(digits)}${unit}`;
  return `${f(s.median)} (min ${f(s.min)}, max ${f(s.max)}, ${s.rounds.length} rounds)`;
}

/** The p-th percentile (nearest rank) of `xs`. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
}

/** How many rounds a ratio takes: BENCH_ROUNDS, at least 5. */
export const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 5));

/** `ok` with the verdict's word, for the one-line descriptions. */
export const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER BUDGET');
