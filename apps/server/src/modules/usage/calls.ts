import { admit, close, release, settled } from './admission.ts';
import type { CallTokens } from './costing.ts';
import { type LedgerEntry, prepare, type Settled, write } from './ledger.ts';
import type { UsageState } from './state.ts';

/** Tries of a settle's transaction before its failure is logged (250 ms, then 500 ms apart). */
const SETTLE_ATTEMPTS = 3;

/** A model call about to start: whose it is, and its worst case for the budgets that cover it. */
export interface CallStart {
  entry: Omit<LedgerEntry, 'tokens' | 'at'>;
  estimate: {
    /**
     * The text the model will read (asked for only when a budget needs the estimate), whole or in
     * parts: parts that come back call after call (a conversation's messages) are counted once.
     */
    input: () => string | readonly string[];
    /** The most the model may write: the call's output cap. */
    maxOutputTokens: number;
    /** Images the call will make (an image model's). */
    images?: number;
  };
}

/** A started model call: settle it with what it used, or release it if it never reached the model. */
export interface ModelCall {
  /** Writes the ledger row and the budgets' use for what the call used, in one transaction; once. */
  settle(tokens: CallTokens): Promise<Settled>;
  /** Lets go of the call's holds without a ledger row (it failed before the model answered). */
  release(): Promise<void>;
}

/**
 * The one gate every model call passes (docs/ARCHITECTURE.md#usage-prices-and-budgets): chat
 * answers, regenerations, titles, `/v1`, visitors, code assist, embeddings. Refuses with
 * BUDGET_EXCEEDED or PRICE_MISSING before the call when a budget that covers it has no room.
 */
export async function begin(s: UsageState, start: CallStart): Promise<ModelCall> {
  const reservation = await admit(s, start);
  let done = false;
  const once = () => {
    if (done) throw new Error('usage: a model call was settled or released twice');
    done = true;
  };
  return {
    async settle(tokens) {
      once();
      const prepared = await prepare(s, { ...start.entry, tokens });
      const used = {
        costMicros: prepared.event.costMicros ?? 0,
        tokens: tokens.inputTokens + tokens.outputTokens,
      };
      // A lost connection (a database failing over) fails the transaction whole: trying again
      // cannot count the call twice, and a row the ledger missed would be spend nobody sees.
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await s.ctx.db.transaction(async (tx) => {
            const written = await write(s, prepared, tx);
            if (reservation) await close(s, reservation, tx, used);
            return written;
          });
          if (reservation) settled(s, reservation, used);
          return result;
        } catch (err) {
          if (attempt >= SETTLE_ATTEMPTS) throw err;
          await new Promise((r) => setTimeout(r, 250 * attempt));
        }
      }
    },
    async release() {
      // Callers release in `finally` blocks: after a settle (or twice) there is nothing left to give back.
      if (done) return;
      done = true;
      if (reservation) await release(s, reservation);
    },
  };
}
