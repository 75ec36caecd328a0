import { describe, expect, it } from 'vitest';
import { lossSummary, runStreamCrash } from '../../test/stream-crash.ts';

/** How long every answer streams before the kill. */
const STREAM_FOR_MS = 4_000;

describe('a server killed (-9) with 200 answers streaming', () => {
  it('loses nothing the users sent, leaves nothing streaming, and keeps what each reader saw but the last moments', async () => {
    const result = await runStreamCrash({ streams: 200, streamForMs: STREAM_FOR_MS });
    expect(result.problems).toEqual([]);
    expect(result.lossMs).toHaveLength(200);
    // The next process ends its dead predecessor's answers as it starts.
    expect(result.finalisedAfterMs).toBeLessThan(30_000);
    // Partial answers were stored while they streamed: without that, a reader would lose all of it.
    // Issue 15's budget (≤ 250 ms of stream) is a timing figure and is reported by `npm run bench`
    // (bench/crash.ts, this scenario): on a loaded machine a flush takes longer than on a quiet one.
    expect(lossSummary(result).maxMs).toBeLessThan(STREAM_FOR_MS / 2);
  }, 240_000);
});
