import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { eraseContent } from './erasure.ts';
import { createExport, createExportsState, createMyExport, openExport } from './export.ts';

/** A person's data as a whole: exports of it and its erasure (docs/ARCHITECTURE.md#export-and-erasure). */
export function personalDataService(ctx: AppContext) {
  return withState(createExportsState(ctx), { createMyExport, createExport, openExport, eraseContent });
}

export type PersonalDataService = ReturnType<typeof personalDataService>;
