/**
 * The size of the next statement of a long deletion (retention, docs/ARCHITECTURE.md#retention):
 * as many rows as take about `targetMs`, never more than `max`. On the embedded database every
 * statement has the one connection to itself, so a statement of 1,000 rows held streaming answers'
 * writes behind it for tens of milliseconds; a statement sized to a few milliseconds does not.
 */
export class PacedBatches {
  size: number;

  constructor(
    private readonly max: number,
    private readonly targetMs = 4,
    private readonly min = 10,
  ) {
    this.size = Math.min(max, 100);
  }

  /** Runs `statement` with the current size, and sizes the next one by how long it took. */
  async run<T>(statement: (size: number) => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const result = await statement(this.size);
    const ms = performance.now() - t0;
    if (ms > this.targetMs) this.size = Math.max(this.min, Math.floor(this.size / 2));
    else if (ms < this.targetMs / 2) this.size = Math.min(this.max, this.size * 2);
    return result;
  }
}
