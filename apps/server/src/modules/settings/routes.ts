import {
  DomainHintSchema,
  DomainSettingsSchema,
  DomainSettingsUpdateSchema,
  EulaAcceptSchema,
  EulaStatusSchema,
  ProfileSchema,
  ProfileUpdateSchema,
  RevokeAllSessionsBodySchema,
  SessionSchema,
  SessionsRevokedSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { auditMeta } from '../audit/index.ts';

const SessionParams = z.object({ id: z.string().min(1).max(128) });
const DomainQuery = z.object({ domain: DomainHintSchema });

/** /api/v1/settings (mounted by the account manager): own profile, sessions, EULA; domain settings. */
export async function settingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.settings;

  const r = app.withTypeProvider<ZodTypeProvider>();
  const { user, admin } = RouteNeeds;
  const tags = ['settings'];

  r.get(
    '/profile',
    {
      config: user,
      schema: {
        tags,
        summary: 'The caller’s profile',
        response: { 200: ProfileSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) => service.getProfile(request.caller),
  );

  r.put(
    '/profile',
    {
      config: user,
      schema: {
        tags,
        summary: 'Change the caller’s name or language',
        body: ProfileUpdateSchema,
        response: { 200: ProfileSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) => service.updateProfile(request.caller, request.body),
  );

  r.get(
    '/sessions',
    {
      config: user,
      schema: {
        tags,
        summary: 'The caller’s live sessions, most recently used first',
        response: { 200: z.array(SessionSchema) },
      },
    },
    async (request) => service.listSessions(request.caller),
  );

  r.delete(
    '/sessions/:id',
    {
      config: user,
      schema: {
        tags,
        summary: 'End one of the caller’s sessions',
        params: SessionParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.revokeSession(request.caller, request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/sessions/revoke-all',
    {
      config: user,
      schema: {
        tags,
        summary: 'Sign the caller out everywhere, or everywhere else (the body may be left out)',
        body: RevokeAllSessionsBodySchema,
        response: { 200: SessionsRevokedSchema },
      },
    },
    async (request) => service.revokeAllSessions(request.caller, request.body),
  );

  r.get(
    '/eula',
    {
      config: user,
      schema: {
        tags,
        summary: 'The caller’s terms-of-use record and the version their domain asks for',
        response: { 200: EulaStatusSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) => service.getEula(request.caller),
  );

  r.post(
    '/eula/accept',
    {
      config: user,
      schema: {
        tags,
        summary: 'Accept the current terms of use',
        body: EulaAcceptSchema,
        response: { 200: EulaStatusSchema, ...errorResponses('USER_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => service.acceptEula(request.caller, request.body),
  );

  r.get(
    '/domain',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The caller’s domain settings (a SuperAdmin may name a domain)',
        querystring: DomainQuery,
        response: { 200: DomainSettingsSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.getDomainSettings(request.caller, request.query.domain),
  );

  r.put(
    '/domain',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change the domain settings; a new EULA version asks every user to accept again',
        querystring: DomainQuery,
        body: DomainSettingsUpdateSchema,
        response: { 200: DomainSettingsSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) =>
      service.updateDomainSettings(request.caller, request.query.domain, request.body, auditMeta(request)),
  );
}
