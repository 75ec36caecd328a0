import {
  type VirtualAccount,
  type VirtualAccountCreate,
  VirtualAccountSchema,
  type VirtualAccountUpdate,
  type VirtualAccountWithSecret,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import type { HttpClient } from '../../lib/http/client.ts';
import { arrayOf } from '../../lib/http/schemas.ts';

const BASE = '/api/v1/virtual_account';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/** The domain's embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat), for its Admins. */
export function createEmbedsApi(http: HttpClient) {
  return {
    list: (): Promise<VirtualAccount[]> => http.get(BASE, { schema: arrayOf(VirtualAccountSchema) }),
    create: (body: VirtualAccountCreate): Promise<VirtualAccountWithSecret> =>
      http.post(BASE, { body, schema: VirtualAccountWithSecretSchema }),
    update: (id: string, body: VirtualAccountUpdate): Promise<VirtualAccount> =>
      http.put(path(id), { body, schema: VirtualAccountSchema }),
    remove: (id: string): Promise<void> => http.delete(path(id)),
    rotateSecret: (id: string): Promise<VirtualAccountWithSecret> =>
      http.post(`${path(id)}/secret`, { schema: VirtualAccountWithSecretSchema }),
  };
}
