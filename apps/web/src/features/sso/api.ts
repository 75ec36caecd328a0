import {
  type SsoProvider,
  type SsoProviderCreate,
  SsoProviderSchema,
  type SsoProviderUpdate,
} from '@assistente/contracts';
import type { HttpClient } from '../../lib/http/client.ts';
import { arrayOf } from '../../lib/http/schemas.ts';

const BASE = '/api/v1/integration/sso';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** Single sign-on providers (SuperAdmin). */
export function createSsoApi(http: HttpClient) {
  return {
    list: (): Promise<SsoProvider[]> => http.get(BASE, { schema: arrayOf(SsoProviderSchema) }),
    create: (body: SsoProviderCreate): Promise<SsoProvider> =>
      http.post(BASE, { body, schema: SsoProviderSchema }),
    update: (id: string, body: SsoProviderUpdate): Promise<SsoProvider> =>
      http.put(path(id), { body, schema: SsoProviderSchema }),
    remove: (id: string): Promise<void> => http.delete(path(id)),
  };
}
