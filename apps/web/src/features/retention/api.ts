import type { MyRetention, RetentionSettings, RetentionView } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { parsed, typed } from '../../lib/http/schemas.ts';

/** /api/v1/settings/retention (an Admin's rule) and /api/v1/me/retention (the notice), docs/ARCHITECTURE.md#governance. */
export function createRetentionApi(client: ApiClient) {
  return {
    get: (domain: string): Promise<RetentionView> =>
      parsed(
        typed<RetentionView>(),
        client.GET('/api/v1/settings/retention', { params: { query: { domain } } }),
      ),
    put: (domain: string, body: RetentionSettings): Promise<RetentionView> =>
      parsed(
        typed<RetentionView>(),
        client.PUT('/api/v1/settings/retention', { params: { query: { domain } }, body }),
      ),
    mine: (): Promise<MyRetention> => parsed(typed<MyRetention>(), client.GET('/api/v1/me/retention')),
  };
}
