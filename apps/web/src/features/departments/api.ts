import {
  type Department,
  type DepartmentCreate,
  DepartmentSchema,
  type DepartmentUpdate,
} from '@assistente/contracts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { authServices } from '../auth/index.ts';

/** The largest page the API serves: enough for a domain's departments in one go (selects, labels). */
export const ALL_DEPARTMENTS_LIMIT = 200;

export interface DepartmentListParams {
  /** A SuperAdmin's choice of domain; others always get their own (null: the caller's). */
  domain: string | null;
  q?: string;
  cursor?: string;
  limit?: number;
}

const http = () => authServices().accountHttp;
const path = (id: string) => `/api/v1/department/${encodeURIComponent(id)}`;

/** Account manager: departments (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
export const departmentsApi = {
  list: (params: DepartmentListParams): Promise<Page<Department>> =>
    getPage(http(), '/api/v1/department', DepartmentSchema, {
      // `domain` is only a filter for a SuperAdmin; without a choice, no hint (the caller's domain).
      domain: params.domain ?? undefined,
      q: params.q || undefined,
      cursor: params.cursor,
      limit: params.limit,
    }),
  create: (body: DepartmentCreate): Promise<Department> =>
    http().post('/api/v1/department', { body, schema: DepartmentSchema }),
  // A 409 here is an answer (name taken, users left), not a glitch: shown at once, not retried.
  update: (id: string, body: DepartmentUpdate): Promise<Department> =>
    http().put(path(id), { body, schema: DepartmentSchema, retry: 0 }),
  remove: async (id: string): Promise<void> => {
    await http().delete(path(id), { retry: 0 });
  },
};
