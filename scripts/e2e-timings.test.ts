// Timings gate nothing in the end-to-end journeys: a busy machine reads 52.6 ms for a 50 ms budget and a
// landing fails for it. Figures are recorded there and judged by `npm run bench`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const e2e = path.resolve(import.meta.dirname, '..', 'e2e');

function specs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return specs(full);
    return entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** `expect(<something timed>).toBeLessThan…(…)`: a duration compared with a budget. */
const TIMED_BUDGET = /expect\(\s*[\w.?[\]'"]*(Ms|Millis|Seconds|Secs)\b[^)]*\)\s*\.toBeLessThan(OrEqual)?\(/g;

describe('end-to-end journeys', () => {
  it('compare no measured duration with a budget', () => {
    const offenders = specs(e2e).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(TIMED_BUDGET)].map(
        (m) => `${path.relative(e2e, file)}: ${m[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the check finds a timed budget where one is written', () => {
    const sample = 'expect(figures.firstTokenMs).toBeLessThanOrEqual(50);';
    expect(sample.match(TIMED_BUDGET)).toHaveLength(1);
  });
});
