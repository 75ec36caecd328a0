import {
  type MyRetention,
  MyRetentionSchema,
  type RetentionSettings,
  type RetentionView,
  RetentionViewSchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { parsed } from '../../lib/http/schemas.ts';

/** /api/v1/settings/retention (an Admin's rule) and /api/v1/me/retention (the notice), docs/ARCHITECTURE.md#governance. */
export function createRetentionApi(client: ApiClient) {
  return {
    get: (domain: string): Promise<RetentionView> =>
      parsed(
        RetentionViewSchema,
        client.GET('/api/v1/settings/retention', { params: { query: { domain } } }),
      ),
    put: (domain: string, body: RetentionSettings): Promise<RetentionView> =>
      parsed(
        RetentionViewSchema,
        client.PUT('/api/v1/settings/retention', { params: { query: { domain } }, body }),
      ),
    mine: (): Promise<MyRetention> => parsed(MyRetentionSchema, client.GET('/api/v1/me/retention')),
  };
}
