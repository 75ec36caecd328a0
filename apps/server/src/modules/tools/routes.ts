import {
  McpConnectOutcomes,
  McpConnectSchema,
  McpServerCreateSchema,
  McpServerSchema,
  McpServerUpdateSchema,
  ProviderSettingsQuerySchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { linkBase } from '../../lib/origin.ts';
import { errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

/**
 * A domain's MCP servers (Admin+ of the domain; SuperAdmin any via `?domain=`). Mounted at
 * /api/v1/integration/mcp.
 */
export async function toolsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.tools;
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Admins manage the domain's servers, anyone their own private ones: the service tells them apart.
  const admin = RouteNeeds.user;
  const tags = ['tools'];
  const querystring = ProviderSettingsQuerySchema;

  r.get(
    '/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The domain’s MCP servers, with the tools last discovered (header values never shown)',
        querystring,
        response: { 200: z.array(McpServerSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.listServers(request.caller, request.query.domain),
  );

  r.post(
    '/',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Add an MCP server (streamable HTTP); its tools are discovered at once',
        description: 'A server that cannot be reached is still added, with `lastError` saying why.',
        querystring,
        body: McpServerCreateSchema,
        response: { 201: McpServerSchema, ...errorResponses('CONFLICT', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createServer(request.caller, request.body, auditMeta(request), request.query.domain),
        ),
  );

  r.get(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'One MCP server',
        params: IdParams,
        querystring,
        response: { 200: McpServerSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.getServer(request.caller, request.params.id, request.query.domain),
  );

  r.put(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Change an MCP server (an absent header value keeps the stored one; a new URL or auth discovers again)',
        params: IdParams,
        querystring,
        body: McpServerUpdateSchema,
        response: { 200: McpServerSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.updateServer(
        request.caller,
        request.params.id,
        request.body,
        auditMeta(request),
        request.query.domain,
      ),
  );

  r.delete(
    '/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove an MCP server',
        params: IdParams,
        querystring,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.removeServer(request.caller, request.params.id, auditMeta(request), request.query.domain);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/:id/connect',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary:
          'Connect your account to an OAuth MCP server: where to sign in (null when connected already)',
        description:
          'Open `authorizationUrl` in a popup; the server sends the person back to `/api/v1/integration/mcp/oauth/callback`, which ends on `/integration/mcp-connected?status=…`.',
        params: IdParams,
        response: { 200: McpConnectSchema, ...errorResponses('NOT_FOUND', 'PROVIDER_ERROR') },
      },
    },
    async (request) => service.connect(request.caller, request.params.id, linkBase(ctx.config, request)),
  );

  r.delete(
    '/:id/connect',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'Forget your connection to an OAuth MCP server (its tokens)',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.disconnect(request.caller, request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/oauth/callback',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Where an MCP server’s authorization server sends the person back (OAuth 2.1 redirect URI)',
        querystring: z.object({
          code: z.string().max(4_000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
        }),
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      const base = linkBase(ctx.config, request);
      const outcome = await service.finishConnect(request.query, base);
      const to = new URL('/integration/mcp-connected', base);
      to.searchParams.set('status', McpConnectOutcomes.includes(outcome) ? outcome : 'failed');
      return reply.redirect(to.href, 302);
    },
  );

  r.post(
    '/:id/refresh',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Discover an MCP server’s tools again',
        params: IdParams,
        querystring,
        response: { 200: McpServerSchema, ...errorResponses('NOT_FOUND', 'DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.refreshServer(request.caller, request.params.id, request.query.domain),
  );
}
