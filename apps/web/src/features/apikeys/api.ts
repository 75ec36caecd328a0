import {
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  ApiKeySchema,
} from '@assistente/contracts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { authServices } from '../auth/index.ts';

/** Whose keys a list shows: the caller's own, or (Admins) every key of their organisation. */
export type ApiKeyScope = 'own' | 'domain';

const API_KEYS_PAGE_SIZE = 50;

const http = () => authServices().accountHttp;

/** /api/v1/api_keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api). */
export const apiKeysApi = {
  list: (scope: ApiKeyScope, cursor?: string): Promise<Page<ApiKey>> =>
    getPage(http(), '/api/v1/api_keys', ApiKeySchema, { scope, cursor, limit: API_KEYS_PAGE_SIZE }),
  create: (body: ApiKeyCreate): Promise<ApiKeyCreated> =>
    http().post('/api/v1/api_keys', { body, schema: ApiKeyCreatedSchema }),
  revoke: async (id: string): Promise<void> => {
    await http().delete(`/api/v1/api_keys/${encodeURIComponent(id)}`);
  },
};
