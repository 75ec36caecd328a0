import {
  DepartmentCreateSchema,
  DepartmentListQuerySchema,
  DepartmentUpdateSchema,
  DomainCreateSchema,
  DomainListQuerySchema,
  DomainUpdateSchema,
  UserCreateSchema,
  UserListQuerySchema,
  UserUpdateSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendPage } from '../../lib/paging.ts';
import { auditMeta, auditRoutes } from '../audit/index.ts';
import { settingsRoutes } from '../settings/index.ts';
import { localeHints } from './locale.ts';
import { organisationService } from './organisation.ts';
import { accountsService } from './service.ts';

const IdParams = z.object({ id: z.string().min(1).max(320) });

/** Account-manager bodies are small: a user, a domain or a department. */
const BODY_LIMIT = 64 * 1024;

/**
 * Account manager, mounted at /api/v1. Every handler authenticates first, then validates, then
 * asks the service; the client's `domain`/`department`/`user`/`email` query hints are ignored
 * (only a SuperAdmin's `?domain=` filters a list).
 */
export async function accountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const users = accountsService(ctx);
  const org = organisationService(ctx);

  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= BODY_LIMIT;
  });
  // Account data is per caller: never let a shared cache keep it.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // ── users ──────────────────────────────────────────────────────────────────────────────────

  app.get('/user', async (request, reply) => {
    const caller = await request.caller();
    const query = UserListQuerySchema.parse(request.query);
    return sendPage(reply, await users.listUsers(caller, query));
  });

  app.post('/user', async (request, reply) => {
    const caller = await request.caller();
    const body = UserCreateSchema.parse(request.body);
    const created = await users.createUser(caller, body, auditMeta(request), localeHints(request));
    return reply.status(201).send(created);
  });

  /** Also the fetch by email: the user id is the lowercased email (GET /api/v1/user/{email}). */
  app.get('/user/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return users.getUser(caller, id);
  });

  app.put('/user/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const body = UserUpdateSchema.parse(request.body);
    return users.updateUser(caller, id, body, auditMeta(request));
  });

  app.delete('/user/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await users.deleteUser(caller, id, auditMeta(request));
    return reply.status(204).send();
  });

  app.post('/user/:id/invitation', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return users.resendInvitation(caller, id, auditMeta(request), localeHints(request));
  });

  app.post('/user/:id/sessions/revoke-all', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return users.revokeUserSessions(caller, id, auditMeta(request));
  });

  // ── domains ────────────────────────────────────────────────────────────────────────────────

  app.get('/domain', async (request, reply) => {
    const caller = await request.caller();
    const query = DomainListQuerySchema.parse(request.query);
    return sendPage(reply, await org.listDomains(caller, query));
  });

  app.post('/domain', async (request, reply) => {
    const caller = await request.caller();
    const body = DomainCreateSchema.parse(request.body);
    return reply.status(201).send(await org.createDomain(caller, body, auditMeta(request)));
  });

  app.get('/domain/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    return org.getDomain(caller, id);
  });

  app.put('/domain/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const body = DomainUpdateSchema.parse(request.body);
    return org.updateDomain(caller, id, body, auditMeta(request));
  });

  app.delete('/domain/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await org.deleteDomain(caller, id, auditMeta(request));
    return reply.status(204).send();
  });

  // ── departments ────────────────────────────────────────────────────────────────────────────

  app.get('/department', async (request, reply) => {
    const caller = await request.caller();
    const query = DepartmentListQuerySchema.parse(request.query);
    return sendPage(reply, await org.listDepartments(caller, query));
  });

  app.post('/department', async (request, reply) => {
    const caller = await request.caller();
    const body = DepartmentCreateSchema.parse(request.body);
    return reply.status(201).send(await org.createDepartment(caller, body, auditMeta(request)));
  });

  app.put('/department/:id', async (request) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    const body = DepartmentUpdateSchema.parse(request.body);
    return org.updateDepartment(caller, id, body, auditMeta(request));
  });

  app.delete('/department/:id', async (request, reply) => {
    const caller = await request.caller();
    const { id } = IdParams.parse(request.params);
    await org.deleteDepartment(caller, id, auditMeta(request));
    return reply.status(204).send();
  });

  // ── settings and audit log: part of the account manager ───────────────────────────────────

  await app.register(async (scope) => settingsRoutes(scope, ctx), { prefix: '/settings' });
  await app.register(async (scope) => auditRoutes(scope, ctx));
}
