import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  ApiKeySchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed } from '../../lib/http/schemas.ts';

/** Whose keys a list shows: the caller's own, or (Admins) every key of their organisation. */
export type ApiKeyScope = 'own' | 'domain';

const API_KEYS_PAGE_SIZE = 50;

/** /api/v1/api_keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api). */
export function createApiKeysApi(client: ApiClient) {
  return {
    list: (scope: ApiKeyScope, cursor?: string): Promise<Page<ApiKey>> =>
      page(
        ApiKeySchema,
        client.GET('/api/v1/api_keys', { params: { query: { scope, cursor, limit: API_KEYS_PAGE_SIZE } } }),
      ),
    create: (body: ApiKeyCreate): Promise<ApiKeyCreated> =>
      parsed(ApiKeyCreatedSchema, client.POST('/api/v1/api_keys', { body })),
    revoke: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/api_keys/{id}', { params: { path: { id } } })),
  };
}
