import {
  EmbeddedConfigSchema,
  EmbeddedLauncherSchema,
  EmbeddedSessionRequestSchema,
  EmbeddedSessionSchema,
  VirtualAccountCreateSchema,
  VirtualAccountListQuerySchema,
  VirtualAccountSchema,
  VirtualAccountUpdateSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, IdParams } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';

/** Embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat), mounted at /api/v1/virtual_account: premium domains' Admins. */
export async function virtualAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.virtualAccounts;
  // Create and rotate answer the signing secret: no cache may keep it.
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'user', role: 'Admin', premium: true } as const;
  const tags = ['embedded'];

  r.get(
    '/',
    {
      config,
      schema: {
        tags,
        summary: 'The domain’s embeds, with their last 30 days’ visitors, chats and messages',
        querystring: VirtualAccountListQuerySchema,
        response: { 200: z.array(VirtualAccountSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.list(request.caller, request.query),
  );

  r.post(
    '/',
    {
      config,
      schema: {
        tags,
        summary: 'Create an embed; the answer holds its signing secret, shown this once',
        querystring: VirtualAccountListQuerySchema,
        body: VirtualAccountCreateSchema,
        response: { 201: VirtualAccountWithSecretSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(request.caller, request.body, auditMeta(request), request.query.domain)),
  );

  r.get(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One embed',
        params: IdParams,
        response: { 200: VirtualAccountSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.get(request.caller, request.params.id),
  );

  r.put(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change an embed (pausing it ends its visitors’ access at once)',
        params: IdParams,
        body: VirtualAccountUpdateSchema,
        response: { 200: VirtualAccountSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.update(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an embed and everything of its visitors’ access',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/:id/secret',
    {
      config,
      schema: {
        tags,
        summary: 'Rotate the signing secret; the answer holds the new one, shown this once',
        params: IdParams,
        response: { 200: VirtualAccountWithSecretSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => service.rotateSecret(request.caller, request.params.id, auditMeta(request)),
  );
}

/**
 * CORS for the calls the launcher script makes from the host page: an allowed site's Origin is
 * echoed (never `*`, and no credentials: a session answer is the only token the site gets).
 */
function echoSite(reply: FastifyReply, origin: string | undefined) {
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
}

/**
 * The visitors' side of embeds (docs/ARCHITECTURE.md#embedded-chat), mounted at /api/v1/embedded: a public session call
 * guarded by the embed's allowed sites, and the embed's settings for its own visitors.
 */
export async function visitorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const visitors = ctx.services.visitors;
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['embedded'];

  r.options('/:id/session', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const origin = request.headers.origin;
    if (await visitors.allowsOrigin(request.params.id, origin)) echoSite(reply, origin);
    reply.header('access-control-allow-methods', 'POST');
    reply.header('access-control-allow-headers', 'content-type');
    reply.header('access-control-max-age', '600');
    return reply.status(204).send();
  });

  r.post(
    '/:id/session',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'A session for a visitor of an allowed site (anonymous, or signed by the site)',
        description:
          'The `Origin` header must be one of the embed’s allowed sites (403 `ORIGIN_NOT_ALLOWED`, also ' +
          'without Origin). Anonymous embeds take `{}` and issue the visitor id; signed ones take ' +
          '`{ visitor: { id, name?, email?, ts, sig } }`, `sig` = hex HMAC-SHA256(secret, "{id}.{ts}"), ' +
          '`ts` in Unix seconds, within 10 minutes (401 `INVALID_VISITOR_SIGNATURE`). The id token has `aud: embedded` ' +
          'and is refreshed through /identity/v1/token.',
        params: IdParams,
        body: EmbeddedSessionRequestSchema.nullish(),
        response: {
          200: EmbeddedSessionSchema,
          ...errorResponses('NOT_FOUND', 'ORIGIN_NOT_ALLOWED', 'INVALID_VISITOR_SIGNATURE'),
        },
      },
    },
    (request, reply) => {
      const ua = request.headers['user-agent'];
      const origin = request.headers.origin;
      return visitors.startSession(
        request.params.id,
        origin,
        request.body ?? {},
        { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null },
        // Set once the site is known to be allowed: the visitor's errors after that (a bad
        // signature) are readable by the site's script.
        () => echoSite(reply, origin),
      );
    },
  );

  r.get(
    '/:id/launcher',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The launcher button’s name and colour, for the embed’s allowed sites only',
        description:
          'Any site may read the refusal (403 `ORIGIN_NOT_ALLOWED`, 404 `NOT_FOUND`): embed.js logs it ' +
          'in the page’s console.',
        params: IdParams,
        response: { 200: EmbeddedLauncherSchema, ...errorResponses('NOT_FOUND', 'ORIGIN_NOT_ALLOWED') },
      },
    },
    async (request, reply) => {
      const origin = request.headers.origin;
      // Before the check: a refusal is readable by the page, whose script then tells its developer
      // why no launcher shows. It says nothing the page could not learn from its own snippet.
      if (origin) echoSite(reply, origin);
      return visitors.launcher(request.params.id, origin);
    },
  );

  r.get(
    '/:id/config',
    {
      config: { auth: 'visitor' },
      schema: {
        tags,
        summary: 'The embed’s name, colour, welcome text and santito, for its own visitors',
        params: IdParams,
        response: { 200: EmbeddedConfigSchema, ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => visitors.config(request.caller, request.params.id),
  );
}
