import {
  type Department,
  type DepartmentCreate,
  DepartmentSchema,
  type DepartmentUpdate,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed } from '../../lib/http/schemas.ts';

/** The largest page the API serves: enough for a domain's departments in one go (selects, labels). */
export const ALL_DEPARTMENTS_LIMIT = 200;

export interface DepartmentListParams {
  /** A SuperAdmin's choice of domain; others always get their own (null: the caller's). */
  domain: string | null;
  q?: string;
  cursor?: string;
  limit?: number;
}

const byId = (id: string) => ({ params: { path: { id } } });

/** Account manager: departments (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
export function createDepartmentsApi(client: ApiClient) {
  return {
    list: (params: DepartmentListParams): Promise<Page<Department>> =>
      page(
        DepartmentSchema,
        client.GET('/api/v1/department', {
          params: {
            query: {
              // `domain` is only a filter for a SuperAdmin; without a choice, no hint (the caller's domain).
              domain: params.domain ?? undefined,
              q: params.q || undefined,
              cursor: params.cursor,
              limit: params.limit,
            },
          },
        }),
      ),
    create: (body: DepartmentCreate): Promise<Department> =>
      parsed(DepartmentSchema, client.POST('/api/v1/department', { body })),
    // A 409 here is an answer (name taken, users left), not a glitch: shown at once, not retried.
    update: (id: string, body: DepartmentUpdate): Promise<Department> =>
      parsed(DepartmentSchema, client.PUT('/api/v1/department/{id}', { ...byId(id), body, retry: 0 })),
    remove: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/department/{id}', { ...byId(id), retry: 0 })),
  };
}
