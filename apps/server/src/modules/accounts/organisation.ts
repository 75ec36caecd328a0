import type {
  Department,
  DepartmentCreate,
  DepartmentListQuery,
  DepartmentUpdate,
  Domain,
  DomainCreate,
  DomainListQuery,
  DomainUpdate,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { isPremiumDomain } from './caller-state.ts';
import { toDepartment, toDomain } from './dto.ts';
import {
  departmentHasUsers,
  departmentNameTaken,
  departmentNotFound,
  domainExists,
  domainHasUsers,
  domainNotFound,
  domainStillReferenced,
  unknownDomainField,
} from './errors.ts';
import { authorize, requestedDomainFilter } from './policy.ts';
import { DEFAULT_DEPARTMENT, newDepartmentId } from './provision.ts';
import { normalizeId } from './service.ts';
import {
  type AccountsStore,
  accountsStore,
  DEPARTMENT_CURSOR_TAG,
  DOMAIN_CURSOR_TAG,
  type DomainPatch,
} from './store.ts';

const requireSuperAdmin = (caller: UserCaller) => authorize(caller, 'spanDomains', null);

/** A foreign key from another table still points at the row (PostgreSQL 23503). */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Domains (SuperAdmin writes) and departments (Admin+ writes, own domain). */
export function organisationService(ctx: AppContext, store: AccountsStore = accountsStore(ctx.db)) {
  const cursors = cursorsFor(ctx.config);
  return {
    /** The caller's own domain, or any domain for a SuperAdmin; otherwise 404. */
    async getDomain(caller: UserCaller, id: string): Promise<Domain> {
      const row = await store.findDomain(caller, normalizeId(id));
      if (!row) throw domainNotFound();
      return toDomain(row, ctx.config);
    },

    /** Everyone: their own domain; a SuperAdmin: every domain. */
    async listDomains(caller: UserCaller, query: DomainListQuery): Promise<Page<Domain>> {
      const after = cursors.parse(DOMAIN_CURSOR_TAG, query.cursor, 2);
      const page = await store.listDomains(caller, {
        limit: query.limit,
        ...(query.q?.trim() ? { q: query.q.trim() } : {}),
        ...(query.active === undefined ? {} : { active: query.active }),
        ...(after ? { after } : {}),
      });
      return cursors.page(DOMAIN_CURSOR_TAG, page, (d) => toDomain(d, ctx.config));
    },

    /** SuperAdmin: a new domain with a first department, so its first Admin can be invited at once. */
    async createDomain(caller: UserCaller, body: DomainCreate, meta: AuditMeta): Promise<Domain> {
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
    },

    /** SuperAdmin. `_id`, `domain` and `creator` may be sent back unchanged, never changed. */
    async updateDomain(caller: UserCaller, id: string, body: DomainUpdate, meta: AuditMeta): Promise<Domain> {
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
      if (body.isTrusted !== undefined && body.isTrusted !== current.isTrusted)
        patch.isTrusted = body.isTrusted;
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
    },

    /** SuperAdmin; refused (409) while the domain has users. Its departments go with it. */
    async deleteDomain(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
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
    },

    async listDepartments(caller: UserCaller, query: DepartmentListQuery): Promise<Page<Department>> {
      const after = cursors.parse(DEPARTMENT_CURSOR_TAG, query.cursor, 2);
      // Only a SuperAdmin's ?domain= means anything: for everyone else it is the client's logging hint.
      const requestedDomain = requestedDomainFilter(caller, query.domain);
      if (requestedDomain && !(await store.findDomain(caller, requestedDomain))) throw domainNotFound();
      const page = await store.listDepartments(caller, {
        limit: query.limit,
        ...(requestedDomain ? { requestedDomain } : {}),
        ...(after ? { after } : {}),
        ...(query.q ? { q: query.q } : {}),
      });
      return cursors.page(DEPARTMENT_CURSOR_TAG, page, toDepartment);
    },

    /** Admin+: in the caller's domain, or (SuperAdmin) any existing one. Names are unique per domain. */
    async createDepartment(caller: UserCaller, body: DepartmentCreate, meta: AuditMeta): Promise<Department> {
      authorize(caller, 'administer', null);
      const domainId = body.domain ? normalizeId(body.domain) : caller.domain.id;
      authorize(
        caller,
        'administerDomain',
        domainId,
        'An Admin creates departments in their own domain only',
      );
      if (!(await store.findDomain(caller, domainId))) {
        throw unknownDomainField();
      }
      if (await store.findDepartmentByName(caller, domainId, body.displayName)) {
        throw departmentNameTaken(body.displayName);
      }
      const created = await ctx.db.transaction(async (tx) => {
        const row = await accountsStore(tx).insertDepartment(caller, {
          id: newDepartmentId(),
          domainId,
          displayName: body.displayName,
        });
        await recordAudit(tx, caller, meta, {
          action: 'department.create',
          targetType: 'department',
          targetId: row.id,
          domainId,
          before: null,
          after: toDepartment(row),
        });
        return row;
      });
      return toDepartment(created);
    },

    /** Admin+ of the department's domain: rename, deactivate or reactivate. `domain` never changes. */
    async updateDepartment(
      caller: UserCaller,
      id: string,
      body: DepartmentUpdate,
      meta: AuditMeta,
    ): Promise<Department> {
      authorize(caller, 'administer', null);
      const current = await store.findDepartmentById(caller, id);
      if (!current) throw departmentNotFound();
      if (body._id !== undefined && body._id !== current.id) throw forbidden('_id cannot be changed');
      if (body.domain !== undefined && normalizeId(body.domain) !== current.domainId) {
        throw forbidden('A department cannot move to another domain');
      }
      const patch: { displayName?: string; active?: boolean } = {};
      if (body.displayName !== undefined && body.displayName !== current.displayName) {
        if (await store.findDepartmentByName(caller, current.domainId, body.displayName, current.id)) {
          throw departmentNameTaken(body.displayName);
        }
        patch.displayName = body.displayName;
      }
      if (body.active !== undefined && body.active !== current.active) patch.active = body.active;
      if (Object.keys(patch).length === 0) return toDepartment(current);
      const updated = await ctx.db.transaction(async (tx) => {
        const row = await accountsStore(tx).updateDepartment(caller, current.id, patch);
        if (!row) return undefined;
        await recordAudit(tx, caller, meta, {
          action: 'department.update',
          targetType: 'department',
          targetId: row.id,
          domainId: row.domainId,
          ...changedFields(toDepartment(current), toDepartment(row)),
        });
        return row;
      });
      if (!updated) throw departmentNotFound();
      return toDepartment(updated);
    },

    /** Admin+ of the department's domain; refused (409) while users remain in it. */
    async deleteDepartment(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      authorize(caller, 'administer', null);
      await ctx.db.transaction(async (tx) => {
        const s = accountsStore(tx);
        // Locked, so no user is placed in it between the count and the delete.
        const current = await s.findDepartmentById(caller, id, { lock: 'update' });
        if (!current) throw departmentNotFound();
        const users = await s.countUsers(caller, { domainId: current.domainId, departmentId: current.id });
        if (users > 0) {
          throw departmentHasUsers(current.displayName, users);
        }
        const row = await s.deleteDepartment(caller, current.id);
        if (!row) throw departmentNotFound();
        await recordAudit(tx, caller, meta, {
          action: 'department.delete',
          targetType: 'department',
          targetId: row.id,
          domainId: row.domainId,
          before: toDepartment(row),
          after: null,
        });
      });
    },
  };
}

export type OrganisationService = ReturnType<typeof organisationService>;
