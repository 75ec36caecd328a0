import { type Domain, type DomainCreate, DomainSchema, type DomainUpdate } from '@assistente/contracts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { authServices } from '../auth/index.ts';

export interface DomainListParams {
  q?: string;
  cursor?: string;
  limit?: number;
}

const http = () => authServices().accountHttp;
const path = (id: string) => `/api/v1/domain/${encodeURIComponent(id)}`;

/** Account manager: domains (docs/ARCHITECTURE.md#organisations-domains-departments-premium; writes are a SuperAdmin's). */
export const domainsApi = {
  list: (params: DomainListParams): Promise<Page<Domain>> =>
    getPage(http(), '/api/v1/domain', DomainSchema, {
      q: params.q || undefined,
      cursor: params.cursor,
      limit: params.limit,
    }),
  get: (id: string): Promise<Domain> => http().get(path(id), { schema: DomainSchema }),
  create: (body: DomainCreate): Promise<Domain> =>
    http().post('/api/v1/domain', { body, schema: DomainSchema }),
  update: (id: string, body: DomainUpdate): Promise<Domain> =>
    http().put(path(id), { body, schema: DomainSchema }),
  // A 409 (users left) is an answer, not a glitch: shown at once, not retried.
  remove: async (id: string): Promise<void> => {
    await http().delete(path(id), { retry: 0 });
  },
};
