import {
  DomainHintSchema,
  DomainSettingsUpdateSchema,
  EulaAcceptSchema,
  ProfileUpdateSchema,
  RevokeAllSessionsSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { auditMeta } from '../audit/index.ts';
import { settingsService } from './service.ts';

const SessionParams = z.object({ id: z.string().min(1).max(128) });
const DomainQuery = z.object({ domain: DomainHintSchema });

/** /api/v1/settings (mounted by the account manager): own profile, sessions, EULA; domain settings. */
export async function settingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = settingsService(ctx);

  app.get('/profile', async (request) => service.getProfile(await request.caller()));

  app.put('/profile', async (request) => {
    const caller = await request.caller();
    return service.updateProfile(caller, ProfileUpdateSchema.parse(request.body));
  });

  app.get('/sessions', async (request) => service.listSessions(await request.caller()));

  app.delete('/sessions/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = SessionParams.parse(request.params);
    await service.revokeSession(caller, id);
    return reply.status(204).send();
  });

  app.post('/sessions/revoke-all', async (request) => {
    const caller = await request.caller();
    return service.revokeAllSessions(caller, RevokeAllSessionsSchema.parse(request.body ?? {}));
  });

  app.get('/eula', async (request) => service.getEula(await request.caller()));

  app.post('/eula/accept', async (request) => {
    const caller = await request.caller();
    return service.acceptEula(caller, EulaAcceptSchema.parse(request.body));
  });

  app.get('/domain', async (request) => {
    const caller = await request.caller();
    const { domain } = DomainQuery.parse(request.query);
    return service.getDomainSettings(caller, domain);
  });

  app.put('/domain', async (request) => {
    const caller = await request.caller();
    const { domain } = DomainQuery.parse(request.query);
    const body = DomainSettingsUpdateSchema.parse(request.body);
    return service.updateDomainSettings(caller, domain, body, auditMeta(request));
  });
}
