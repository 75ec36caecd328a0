import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { close, createPiiState, filterFor, getSettings, putSettings, screen } from './pii.ts';

/** Each domain's PII filter: its settings, and the seam every entry point calls (docs/ARCHITECTURE.md#pii-filter). */
export function piiService(ctx: AppContext) {
  return withState(createPiiState(ctx), {
    getSettings,
    putSettings,
    /** The domain's filter, to apply to several texts (cached; dropped on every replica when it changes). */
    filterFor,
    screen,
    close,
  });
}

export type PiiService = ReturnType<typeof piiService>;
