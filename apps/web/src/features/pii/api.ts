import { type PiiSettings, PiiSettingsSchema } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { parsed } from '../../lib/http/schemas.ts';

/** A domain's PII filter (docs/ARCHITECTURE.md#pii-filter), served with the other settings by the account manager. */
export function createPiiApi(client: ApiClient) {
  return {
    get: (domain: string): Promise<PiiSettings> =>
      parsed(PiiSettingsSchema, client.GET('/api/v1/settings/pii', { params: { query: { domain } } })),
    put: (domain: string, body: PiiSettings): Promise<PiiSettings> =>
      parsed(PiiSettingsSchema, client.PUT('/api/v1/settings/pii', { params: { query: { domain } }, body })),
  };
}
