import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { createRetentionState, getSettings, myRetention, putSettings, runRetention } from './retention.ts';

/** Each domain's retention rule and its daily run (docs/ARCHITECTURE.md#retention). */
export function retentionService(ctx: AppContext) {
  return withState(createRetentionState(ctx), { getSettings, putSettings, myRetention, run: runRetention });
}

export type RetentionService = ReturnType<typeof retentionService>;
