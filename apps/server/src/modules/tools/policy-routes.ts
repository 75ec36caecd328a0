import {
  ProviderSettingsQuerySchema,
  ToolListSchema,
  ToolPolicySchema,
  ToolPolicyUpdateSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

/** A domain's tool policy (Admin+), mounted at /api/v1/settings/tools. */
export async function toolPolicyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.tools;
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tools'];
  const querystring = ProviderSettingsQuerySchema;

  r.get(
    '/',
    {
      config: RouteNeeds.admin,
      schema: {
        tags,
        summary:
          'The domain’s tool policy: rules (globs, deny wins) and whether people add their own servers',
        querystring,
        response: { 200: ToolPolicySchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.getPolicy(request.caller, request.query.domain),
  );

  r.put(
    '/',
    {
      config: RouteNeeds.admin,
      schema: {
        tags,
        summary: 'Replace the domain’s tool policy',
        querystring,
        body: ToolPolicyUpdateSchema,
        response: { 200: ToolPolicySchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.putPolicy(request.caller, request.body, auditMeta(request), request.query.domain),
  );
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
