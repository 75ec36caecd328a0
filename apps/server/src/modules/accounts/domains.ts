import {
  DEFAULT_TIME_ZONE,
  type Domain,
  type DomainCreate,
  type DomainListQuery,
  type DomainUpdate,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Page } from '../../lib/paging.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { isPremiumDomain } from './caller-state.ts';
import { toDepartment, toDomain } from './dto.ts';
import { domainExists, domainHasUsers, domainNotFound, domainStillReferenced } from './errors.ts';
import { authorize } from './policy.ts';
import { DEFAULT_DEPARTMENT, newDepartmentId } from './provision.ts';
import { type AccountsState, normalizeId } from './state.ts';
import { accountsStore, DOMAIN_CURSOR_TAG, type DomainPatch } from './store.ts';

/** Domains: everyone reads their own, a SuperAdmin reads and writes every one. */

const requireSuperAdmin = (caller: UserCaller) => authorize(caller, 'spanDomains', null);

/** A foreign key from another table still points at the row (PostgreSQL 23503). */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The caller's own domain, or any domain for a SuperAdmin; otherwise 404. */
export async function getDomain(state: AccountsState, caller: UserCaller, id: string): Promise<Domain> {
  const { ctx, store } = state;
  const row = await store.findDomain(caller, normalizeId(id));
  if (!row) throw domainNotFound();
  return toDomain(row, ctx.config);
}

/** Everyone: their own domain; a SuperAdmin: every domain. */
export async function listDomains(
  state: AccountsState,
  caller: UserCaller,
  query: DomainListQuery,
): Promise<Page<Domain>> {
  const { ctx, store, cursors } = state;
  const after = cursors.parse(DOMAIN_CURSOR_TAG, query.cursor, 2);
  const page = await store.listDomains(caller, {
    limit: query.limit,
    ...(query.q?.trim() ? { q: query.q.trim() } : {}),
    ...(query.active === undefined ? {} : { active: query.active }),
    ...(after ? { after } : {}),
  });
  return cursors.page(DOMAIN_CURSOR_TAG, page, (d) => toDomain(d, ctx.config));
}

/** SuperAdmin: a new domain with a first department, so its first Admin can be invited at once. */
export async function createDomain(
  state: AccountsState,
  caller: UserCaller,
  body: DomainCreate,
  meta: AuditMeta,
): Promise<Domain> {
  const { ctx } = state;
  requireSuperAdmin(caller);
  const created = await ctx.db.transaction(async (tx) => {
    const s = accountsStore(tx);
    const domain = await s.insertDomain(caller, {
      id: body.domain,
      displayName: body.displayName,
      cnpj: body.cnpj ?? null,
      premium: body.premium ?? false,
      isTrusted: body.isTrusted ?? true,
      creator: { name: caller.user.displayName, email: caller.user.email },
    });
    if (!domain) return undefined;
    const department = await s.insertDepartment(caller, {
      id: newDepartmentId(),
      domainId: domain.id,
      displayName: DEFAULT_DEPARTMENT,
    });
    await recordAudit(tx, caller, meta, [
      {
        action: 'domain.create',
        targetType: 'domain',
        targetId: domain.id,
        domainId: domain.id,
        before: null,
        after: toDomain(domain, ctx.config),
      },
      {
        action: 'department.create',
        targetType: 'department',
        targetId: department.id,
        domainId: domain.id,
        before: null,
        after: toDepartment(department),
      },
    ]);
    return domain;
  });
  if (!created) throw domainExists(body.domain);
  return toDomain(created, ctx.config);
}

/** SuperAdmin. `_id`, `domain` and `creator` may be sent back unchanged, never changed. */
export async function updateDomain(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  body: DomainUpdate,
  meta: AuditMeta,
): Promise<Domain> {
  const { ctx, store } = state;
  requireSuperAdmin(caller);
  const domainId = normalizeId(id);
  const current = await store.findDomain(caller, domainId);
  if (!current) throw domainNotFound();
  for (const key of ['_id', 'domain'] as const) {
    const v = body[key];
    if (v !== undefined && normalizeId(v) !== domainId) throw forbidden(`${key} cannot be changed`);
  }
  if (
    body.creator &&
    (body.creator.name !== current.creator.name || body.creator.email !== current.creator.email)
  ) {
    throw forbidden('The creator of a domain cannot be changed');
  }
  const patch: DomainPatch = {};
  if (body.displayName !== undefined && body.displayName !== current.displayName)
    patch.displayName = body.displayName;
  if (body.cnpj !== undefined && body.cnpj !== current.cnpj) patch.cnpj = body.cnpj;
  // `premium` is answered as the effective value: sending it back unchanged changes nothing.
  if (body.premium !== undefined && body.premium !== isPremiumDomain(ctx.config, current))
    patch.premium = body.premium;
  if (body.isTrusted !== undefined && body.isTrusted !== current.isTrusted) patch.isTrusted = body.isTrusted;
  if (body.active !== undefined && body.active !== current.active) {
    if (!body.active && domainId === caller.domain.id) {
      throw forbidden('You cannot deactivate your own domain');
    }
    patch.active = body.active;
  }
  if (Object.keys(patch).length === 0) return toDomain(current, ctx.config);
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await accountsStore(tx).updateDomain(caller, domainId, patch);
    if (!row) return undefined;
    await recordAudit(tx, caller, meta, {
      action: 'domain.update',
      targetType: 'domain',
      targetId: domainId,
      domainId,
      ...changedFields(toDomain(current, ctx.config), toDomain(row, ctx.config)),
    });
    return row;
  });
  if (!updated) throw domainNotFound();
  // Deactivation and premium count from the next request of every user of the domain.
  await ctx.services.callerStates.invalidate({ domain: domainId });
  return toDomain(updated, ctx.config);
}

/** SuperAdmin; refused (409) while the domain has users. Its departments go with it. */
export async function deleteDomain(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const { ctx } = state;
  requireSuperAdmin(caller);
  const domainId = normalizeId(id);
  if (domainId === caller.domain.id) throw forbidden('You cannot delete your own domain');
  try {
    const deleted = await ctx.db.transaction(async (tx) => {
      const s = accountsStore(tx);
      const current = await s.findDomain(caller, domainId, { lock: true });
      if (!current) throw domainNotFound();
      const users = await s.countUsers(caller, { domainId });
      if (users > 0) {
        throw domainHasUsers(users);
      }
      const row = await s.deleteDomain(caller, domainId);
      await recordAudit(tx, caller, meta, {
        action: 'domain.delete',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before: toDomain(current, ctx.config),
        after: null,
      });
      return row;
    });
    if (!deleted) throw domainNotFound();
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw domainStillReferenced();
    }
    throw err;
  }
  await ctx.services.callerStates.invalidate({ domain: domainId });
}

/**
 * The time zone a domain's days, weeks and months are counted in (usage reports, budget periods):
 * a system read for the usage module, which holds the caller's domain already.
 */
export async function domainTimeZone({ store }: AccountsState, domainId: string): Promise<string> {
  return (await store.domainTimeZone(domainId)) ?? DEFAULT_TIME_ZONE;
}

/**
 * The names of a domain's users and departments among `ids`, in one round trip each: what usage
 * reports and budgets show for their ids. An id of another domain (or of no one) is absent.
 */
export async function namesIn(
  { store }: AccountsState,
  domainId: string,
  ids: { userIds: readonly string[]; departmentIds: readonly string[] },
): Promise<{ users: Map<string, string>; departments: Map<string, string> }> {
  return store.namesIn(domainId, ids);
}
