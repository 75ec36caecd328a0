import { ToolListSchema, ToolPolicySchema, ToolPolicyUpdateSchema } from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { domainSettingRoutes } from '../../plugins/domain-setting-routes.ts';
import { RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

/** A domain's tool policy (Admin+), mounted at /api/v1/settings/tools. */
export async function toolPolicyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.tools;
  domainSettingRoutes(app, {
    tags: ['tools'],
    setting: ToolPolicySchema,
    update: ToolPolicyUpdateSchema,
    summaries: {
      get: 'The domain’s tool policy: rules (globs, deny wins) and whether people add their own servers',
      put: 'Replace the domain’s tool policy',
    },
    read: (caller, domain) => service.getPolicy(caller, domain),
    write: (caller, body, request, domain) => service.putPolicy(caller, body, auditMeta(request), domain),
  });
}

/** The tools the caller sees, for giving a santito some (any signed-in person), at /api/v1/agent/tools. */
export async function toolListRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onSend', noStore);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/',
    {
      config: RouteNeeds.user,
      schema: {
        tags: ['tools'],
        summary: 'The tools of the enabled MCP servers the caller sees, with the policy’s decision for each',
        response: { 200: ToolListSchema },
      },
    },
    async (request) => ctx.services.tools.listTools(request.caller),
  );
}
