import { defineModule } from '../../lib/module.ts';
import { budgetRoutes } from './budget-routes.ts';
import { reportRoutes } from './report-routes.ts';
import { type UsageService, usageService } from './service.ts';

export type { CallStart, ModelCall } from './calls.ts';
export type { CallTokens } from './costing.ts';
export type { LedgerEntry, Settled } from './ledger.ts';
export { tokensOf } from './reported.ts';
export type { UsageService } from './service.ts';
export { estimateTokens, warmTokenizer } from './tokens.ts';

declare module '../../context.ts' {
  interface Services {
    /** The usage ledger, prices and budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
    usage: UsageService;
  }
}

/** Usage, prices and budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export const usageModule = defineModule({
  name: 'usage',
  hostedBy: 'accounts',
  services: (ctx) => ({ usage: usageService(ctx) }),
  close: (s) => s.usage?.close(),
  routes: [
    { plugin: budgetRoutes, prefix: '/api/v1/usage' },
    { plugin: reportRoutes, prefix: '/api/v1/usage' },
  ],
  jobs: [
    {
      // Holds of calls whose process died before settling them; a minute late is a minute of room.
      name: 'usage.reservations',
      everyMs: 60_000,
      run: async (ctx) => {
        await ctx.services.usage.sweepReservations();
      },
    },
  ],
});
