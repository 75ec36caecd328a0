import {
  DepartmentCreateSchema,
  DepartmentListQuerySchema,
  DepartmentSchema,
  DepartmentUpdateSchema,
  DomainCreateSchema,
  DomainListQuerySchema,
  DomainSchema,
  DomainUpdateSchema,
  InvitationSentSchema,
  LegalHoldInputSchema,
  LegalHoldSchema,
  SessionsRevokedSchema,
  UserCreatedSchema,
  UserCreateSchema,
  UserListQuerySchema,
  UserSchema,
  UserUpdateSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { linkBase } from '../../lib/origin.ts';
import { sendPage } from '../../lib/paging.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { LocaleQuery, localeHints } from './locale.ts';

const IdParams = z.object({ id: z.string().min(1).max(320) });

/** Account-manager bodies are small: a user, a domain or a department. */
const BODY_LIMIT = 64 * 1024;

/**
 * Account manager, mounted at /api/v1. The client's `domain`/`department`/`user`/`email` query
 * hints are ignored (only a SuperAdmin's `?domain=` filters a list). Finer rules than a route's
 * least role (whose user, which domain) live in the services.
 */
export async function accountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { accounts: users, organisation: org } = ctx.services;

  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= BODY_LIMIT;
  });
  // Account data is per caller: never let a shared cache keep it.
  app.addHook('onSend', noStore);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const { user, admin, superAdmin } = RouteNeeds;

  // ── users ──────────────────────────────────────────────────────────────────────────────────

  const userTags = ['users'];

  r.get(
    '/user',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Users of the caller’s domain (a SuperAdmin: every domain, or `?domain=`)',
        querystring: UserListQuerySchema,
        response: { 200: z.array(UserSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => sendPage(reply, await users.listUsers(request.caller, request.query)),
  );

  r.post(
    '/user',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Create a user and mail them an invitation',
        querystring: LocaleQuery,
        body: UserCreateSchema,
        response: { 201: UserCreatedSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const created = await users.createUser(
        caller,
        request.body,
        auditMeta(request),
        localeHints(request),
        linkBase(ctx.config, request),
      );
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/user/:id',
    {
      config: user,
      schema: {
        tags: userTags,
        // The user id is the lowercased email, so this is also the fetch by email.
        summary: 'One user, by id or email (oneself, or a user the caller manages)',
        params: IdParams,
        response: { 200: UserSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) => users.getUser(request.caller, request.params.id),
  );

  r.put(
    '/user/:id',
    {
      config: user,
      schema: {
        tags: userTags,
        summary: 'Change a user (the full record; each changed field is checked)',
        params: IdParams,
        body: UserUpdateSchema,
        response: { 200: UserSchema, ...errorResponses('USER_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => users.updateUser(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/user/:id',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Delete a user and their identity account',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('USER_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      await users.deleteUser(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/user/:id/invitation',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Mail a new set-password link to a user who has none yet',
        params: IdParams,
        querystring: LocaleQuery,
        response: {
          200: InvitationSentSchema,
          ...errorResponses('USER_NOT_FOUND', 'CONFLICT', 'UNAVAILABLE'),
        },
      },
    },
    async (request) =>
      users.resendInvitation(
        request.caller,
        request.params.id,
        auditMeta(request),
        localeHints(request),
        linkBase(ctx.config, request),
      ),
  );

  r.post(
    '/user/:id/sessions/revoke-all',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Sign a user out everywhere',
        params: IdParams,
        response: { 200: SessionsRevokedSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) => users.revokeUserSessions(request.caller, request.params.id, auditMeta(request)),
  );

  r.put(
    '/user/:id/legal_hold',
    {
      config: admin,
      schema: {
        tags: userTags,
        summary: 'Suspend (or let go on) the deletion of a person’s data: retention and erasure skip them',
        params: IdParams,
        body: LegalHoldInputSchema,
        response: { 200: LegalHoldSchema, ...errorResponses('USER_NOT_FOUND') },
      },
    },
    async (request) =>
      users.setLegalHold(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  // ── domains ────────────────────────────────────────────────────────────────────────────────

  const domainTags = ['domains'];

  r.get(
    '/domain',
    {
      config: user,
      schema: {
        tags: domainTags,
        summary: 'The caller’s domain (a SuperAdmin: every domain)',
        querystring: DomainListQuerySchema,
        response: { 200: z.array(DomainSchema) },
      },
    },
    async (request, reply) => sendPage(reply, await org.listDomains(request.caller, request.query)),
  );

  r.post(
    '/domain',
    {
      config: superAdmin,
      schema: {
        tags: domainTags,
        summary: 'Create a domain with a first department',
        body: DomainCreateSchema,
        response: { 201: DomainSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await org.createDomain(request.caller, request.body, auditMeta(request))),
  );

  r.get(
    '/domain/:id',
    {
      config: user,
      schema: {
        tags: domainTags,
        summary: 'One domain (the caller’s own; a SuperAdmin: any)',
        params: IdParams,
        response: { 200: DomainSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => org.getDomain(request.caller, request.params.id),
  );

  r.put(
    '/domain/:id',
    {
      config: superAdmin,
      schema: {
        tags: domainTags,
        summary: 'Change a domain (any subset of its editable fields)',
        params: IdParams,
        body: DomainUpdateSchema,
        response: { 200: DomainSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => org.updateDomain(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/domain/:id',
    {
      config: superAdmin,
      schema: {
        tags: domainTags,
        summary: 'Delete a domain without users, with its departments',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('DOMAIN_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      await org.deleteDomain(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );

  // ── departments ────────────────────────────────────────────────────────────────────────────

  const departmentTags = ['departments'];

  r.get(
    '/department',
    {
      config: user,
      schema: {
        tags: departmentTags,
        summary: 'Departments of the caller’s domain (a SuperAdmin may pick one with `?domain=`)',
        querystring: DepartmentListQuerySchema,
        response: { 200: z.array(DepartmentSchema), ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => sendPage(reply, await org.listDepartments(request.caller, request.query)),
  );

  r.post(
    '/department',
    {
      config: admin,
      schema: {
        tags: departmentTags,
        summary: 'Create a department',
        body: DepartmentCreateSchema,
        response: { 201: DepartmentSchema, ...errorResponses('CONFLICT') },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await org.createDepartment(request.caller, request.body, auditMeta(request))),
  );

  r.put(
    '/department/:id',
    {
      config: admin,
      schema: {
        tags: departmentTags,
        summary: 'Rename, deactivate or reactivate a department',
        params: IdParams,
        body: DepartmentUpdateSchema,
        response: { 200: DepartmentSchema, ...errorResponses('DEPARTMENT_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) =>
      org.updateDepartment(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/department/:id',
    {
      config: admin,
      schema: {
        tags: departmentTags,
        summary: 'Delete a department without users',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('DEPARTMENT_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      await org.deleteDepartment(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );
}
