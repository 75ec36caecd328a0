import type { ExportRequest } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { departmentNotFound, userNotFound } from './errors.ts';
import { authorize } from './policy.ts';
import type { AccountsState } from './state.ts';
import { normalizeId } from './state.ts';

/*
 * Whose data an export holds (docs/ARCHITECTURE.md#export-and-erasure): the accounts side of the
 * governance module's exports, which never reads the users table itself.
 */

/** A person as an export names them. */
export interface DataSubject {
  id: string;
  email: string;
  displayName: string;
  departmentId: string;
}

/** What an export is of, once the caller may ask for it. */
export interface ExportSubject {
  scope: 'user' | 'department';
  subjectId: string;
  domainId: string;
}

/**
 * An Admin's export request: one person or one department of a domain they administer (a
 * SuperAdmin's any). Anything else is the same 404 as a missing one.
 */
export async function exportSubject(
  { store }: AccountsState,
  caller: UserCaller,
  request: ExportRequest,
): Promise<ExportSubject> {
  authorize(caller, 'administer', null);
  if ('userId' in request) {
    const row = await store.findUser(caller, normalizeId(request.userId));
    if (!row || row.type === 'visitor') throw userNotFound();
    authorize(caller, 'administerDomain', row.domainId, 'You may not export this person’s data');
    return { scope: 'user', subjectId: row.id, domainId: row.domainId };
  }
  const department = await store.findDepartmentById(caller, request.departmentId);
  if (!department) throw departmentNotFound();
  authorize(caller, 'administerDomain', department.domainId, 'You may not export this department’s data');
  return { scope: 'department', subjectId: department.id, domainId: department.domainId };
}

/** The people an export holds now: the person (if still there), or the department's. */
export async function subjectPeople(
  { store }: AccountsState,
  subject: { scope: 'me' | 'user' | 'department'; subjectId: string; domainId: string },
): Promise<DataSubject[]> {
  const rows = await store.peopleIn(
    subject.domainId,
    subject.scope === 'department' ? { departmentId: subject.subjectId } : { userId: subject.subjectId },
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    displayName: r.displayName,
    departmentId: r.departmentId,
  }));
}
