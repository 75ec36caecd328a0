import {
  type VirtualAccount,
  type VirtualAccountCreate,
  VirtualAccountSchema,
  type VirtualAccountUpdate,
  type VirtualAccountWithSecret,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/** The domain's embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat), for its Admins. */
export function createEmbedsApi(client: ApiClient) {
  return {
    list: (): Promise<VirtualAccount[]> =>
      parsed(arrayOf(VirtualAccountSchema), client.GET('/api/v1/virtual_account')),
    create: (body: VirtualAccountCreate): Promise<VirtualAccountWithSecret> =>
      parsed(VirtualAccountWithSecretSchema, client.POST('/api/v1/virtual_account', { body })),
    update: (id: string, body: VirtualAccountUpdate): Promise<VirtualAccount> =>
      parsed(VirtualAccountSchema, client.PUT('/api/v1/virtual_account/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/virtual_account/{id}', byId(id))),
    rotateSecret: (id: string): Promise<VirtualAccountWithSecret> =>
      parsed(VirtualAccountWithSecretSchema, client.POST('/api/v1/virtual_account/{id}/secret', byId(id))),
  };
}
