import type {
  Department,
  DepartmentCreate,
  DepartmentListQuery,
  DepartmentUpdate,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import type { Page } from '../../lib/paging.ts';
import { type AuditMeta, changedFields, recordAudit } from '../audit/index.ts';
import { toDepartment } from './dto.ts';
import {
  departmentHasUsers,
  departmentNameTaken,
  departmentNotFound,
  domainNotFound,
  unknownDomainField,
} from './errors.ts';
import { authorize, requestedDomainFilter } from './policy.ts';
import { newDepartmentId } from './provision.ts';
import { type AccountsState, normalizeId } from './state.ts';
import { accountsStore, DEPARTMENT_CURSOR_TAG } from './store.ts';

/** Departments: Admins (and above) write their own domain's, names unique per domain. */

export async function listDepartments(
  state: AccountsState,
  caller: UserCaller,
  query: DepartmentListQuery,
): Promise<Page<Department>> {
  const { store, cursors } = state;
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
}

/** Admin+: in the caller's domain, or (SuperAdmin) any existing one. Names are unique per domain. */
export async function createDepartment(
  state: AccountsState,
  caller: UserCaller,
  body: DepartmentCreate,
  meta: AuditMeta,
): Promise<Department> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const domainId = body.domain ? normalizeId(body.domain) : caller.domain.id;
  authorize(caller, 'administerDomain', domainId, 'An Admin creates departments in their own domain only');
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
}

/** Admin+ of the department's domain: rename, deactivate or reactivate. `domain` never changes. */
export async function updateDepartment(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  body: DepartmentUpdate,
  meta: AuditMeta,
): Promise<Department> {
  const { ctx, store } = state;
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
}

/** Admin+ of the department's domain; refused (409) while users remain in it. */
export async function deleteDepartment(
  { ctx }: AccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
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
}

/**
 * A department's name, or undefined when it is not one of `domainId` (the caller's own unless a
 * SuperAdmin acts on another): santitos show it, model access rules check theirs exist.
 */
export async function departmentName(
  { store }: AccountsState,
  caller: UserCaller,
  id: string,
  domainId = caller.domain.id,
): Promise<string | undefined> {
  return (await store.findDepartment(caller, domainId, id))?.displayName;
}
