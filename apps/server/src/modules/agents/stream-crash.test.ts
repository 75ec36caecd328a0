import { describe, expect, it } from 'vitest';
import { lossSummary, runStreamCrash } from '../../test/stream-crash.ts';

/** The bar of issue 15: what a reader saw and the store lacks after a crash, in stream time. */
const MAX_LOSS_MS = 250;

describe('a server killed (-9) with 200 answers streaming', () => {
  it('loses nothing the users sent, leaves nothing streaming, and keeps all but ≤ 250 ms of what each reader saw', async () => {
    const result = await runStreamCrash({ streams: 200 });
    expect(result.problems).toEqual([]);
    expect(result.lossMs).toHaveLength(200);
    // The next process ends its dead predecessor's answers as it starts.
    expect(result.finalisedAfterMs).toBeLessThan(30_000);
    expect(lossSummary(result).maxMs).toBeLessThanOrEqual(MAX_LOSS_MS);
  }, 240_000);
});
