import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import {
  createDepartment,
  deleteDepartment,
  departmentName,
  listDepartments,
  updateDepartment,
} from './departments.ts';
import {
  createDomain,
  deleteDomain,
  domainTimeZone,
  getDomain,
  listDomains,
  namesIn,
  updateDomain,
} from './domains.ts';
import { accountsState } from './state.ts';
import type { AccountsStore } from './store.ts';

/** Domains (SuperAdmin writes, domains.ts) and departments (Admin+ writes, own domain, departments.ts). */
export function organisationService(ctx: AppContext, store?: AccountsStore) {
  return withState(accountsState(ctx, store), {
    getDomain,
    listDomains,
    createDomain,
    updateDomain,
    deleteDomain,
    listDepartments,
    createDepartment,
    updateDepartment,
    deleteDepartment,
    departmentName,
    domainTimeZone,
    namesIn,
  });
}

export type OrganisationService = ReturnType<typeof organisationService>;
