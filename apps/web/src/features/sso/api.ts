import {
  type SsoProvider,
  type SsoProviderCreate,
  SsoProviderSchema,
  type SsoProviderUpdate,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/** Single sign-on providers (SuperAdmin). */
export function createSsoApi(client: ApiClient) {
  return {
    list: (): Promise<SsoProvider[]> =>
      parsed(arrayOf(SsoProviderSchema), client.GET('/api/v1/integration/sso')),
    create: (body: SsoProviderCreate): Promise<SsoProvider> =>
      parsed(SsoProviderSchema, client.POST('/api/v1/integration/sso', { body })),
    update: (id: string, body: SsoProviderUpdate): Promise<SsoProvider> =>
      parsed(SsoProviderSchema, client.PUT('/api/v1/integration/sso/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/integration/sso/{id}', byId(id))),
  };
}
