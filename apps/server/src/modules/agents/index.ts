import { defineModule } from '../../lib/module.ts';
import { agentsRoutes } from './routes.ts';
import { type AgentsService, createAgentsService, SWEEP_EVERY_MS } from './service.ts';

export type { AgentsService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Only where this process hosts the agents websocket: it starts the model-call threads. */
    agents?: AgentsService;
  }
}

/** The agents websocket and the model calls (docs/ARCHITECTURE.md#chat-message-data-path). */
export const agentsModule = defineModule({
  name: 'agents',
  hostedBy: 'agents',
  services: (ctx, hosted) => (hosted ? { agents: createAgentsService(ctx) } : {}),
  close: (s) => s.agents?.close(),
  routes: [{ plugin: agentsRoutes, prefix: '/api/v1' }],
  jobs: [
    {
      name: 'agents.stale-answers',
      everyMs: SWEEP_EVERY_MS,
      // A sole writer ends its dead predecessor's answers as it starts.
      runAtStart: (ctx) => ctx.soleWriter,
      run: async (ctx) => ctx.services.agents?.sweepStale(),
    },
    {
      name: 'agents.expired-approvals',
      everyMs: 60_000,
      run: async (ctx) => ctx.services.agents?.denyExpiredApprovals(),
    },
  ],
});
