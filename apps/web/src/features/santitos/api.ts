import { type Santito, type SantitoCreate, SantitoSchema, type SantitoUpdate } from '@assistente/contracts';
import type { HttpClient } from '../../lib/http/client.ts';
import { getPage, type Page } from '../../lib/http/paging.ts';

const path = (id: string) => `/api/v1/agent/${encodeURIComponent(id)}`;

/** Santitos (docs/ARCHITECTURE.md#organisations-domains-departments-premium): `/api/v1/agent` on the account manager. */
export function createSantitosApi(http: HttpClient) {
  return {
    list: (query: { cursor?: string | null; q?: string; limit?: number }): Promise<Page<Santito>> =>
      getPage(http, '/api/v1/agent', SantitoSchema, {
        limit: query.limit ?? 50,
        cursor: query.cursor ?? undefined,
        q: query.q?.trim() || undefined,
      }),
    get: (id: string): Promise<Santito> => http.get(path(id), { schema: SantitoSchema }),
    create: (body: SantitoCreate): Promise<Santito> =>
      http.post('/api/v1/agent', { body, schema: SantitoSchema }),
    update: (id: string, body: SantitoUpdate): Promise<Santito> =>
      http.put(path(id), { body, schema: SantitoSchema }),
    remove: (id: string): Promise<void> => http.delete(path(id)),
  };
}

export type SantitosApi = ReturnType<typeof createSantitosApi>;
export const santitoAvatarPath = (id: string) => `${path(id)}/avatar`;
