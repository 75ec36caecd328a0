import { type Domain, type DomainCreate, DomainSchema, type DomainUpdate } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed } from '../../lib/http/schemas.ts';

export interface DomainListParams {
  q?: string;
  cursor?: string;
  limit?: number;
}

const byId = (id: string) => ({ params: { path: { id } } });

/** Account manager: domains (docs/ARCHITECTURE.md#organisations-domains-departments-premium; writes are a SuperAdmin's). */
export function createDomainsApi(client: ApiClient) {
  return {
    list: (params: DomainListParams): Promise<Page<Domain>> =>
      page(
        DomainSchema,
        client.GET('/api/v1/domain', {
          params: { query: { q: params.q || undefined, cursor: params.cursor, limit: params.limit } },
        }),
      ),
    get: (id: string): Promise<Domain> => parsed(DomainSchema, client.GET('/api/v1/domain/{id}', byId(id))),
    create: (body: DomainCreate): Promise<Domain> =>
      parsed(DomainSchema, client.POST('/api/v1/domain', { body })),
    update: (id: string, body: DomainUpdate): Promise<Domain> =>
      parsed(DomainSchema, client.PUT('/api/v1/domain/{id}', { ...byId(id), body })),
    // A 409 (users left) is an answer, not a glitch: shown at once, not retried.
    remove: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/domain/{id}', { ...byId(id), retry: 0 })),
  };
}
