import type { Santito, SantitoCreate, SantitoUpdate } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed, typed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/** Santitos (docs/ARCHITECTURE.md#organisations-domains-departments-premium): `/api/v1/agent` on the account manager. */
export function createSantitosApi(client: ApiClient) {
  return {
    list: (query: { cursor?: string | null; q?: string; limit?: number }): Promise<Page<Santito>> =>
      page(
        typed<Santito>(),
        client.GET('/api/v1/agent', {
          params: {
            query: {
              limit: query.limit ?? 50,
              cursor: query.cursor ?? undefined,
              q: query.q?.trim() || undefined,
            },
          },
        }),
      ),
    get: (id: string): Promise<Santito> =>
      parsed(typed<Santito>(), client.GET('/api/v1/agent/{id}', byId(id))),
    create: (body: SantitoCreate): Promise<Santito> =>
      parsed(typed<Santito>(), client.POST('/api/v1/agent', { body })),
    update: (id: string, body: SantitoUpdate): Promise<Santito> =>
      parsed(typed<Santito>(), client.PUT('/api/v1/agent/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/agent/{id}', byId(id))),
  };
}

export const santitoAvatarPath = (id: string) => `/api/v1/agent/${encodeURIComponent(id)}/avatar`;
