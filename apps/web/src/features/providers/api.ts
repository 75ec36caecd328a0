import {
  type AiSettings,
  AiSettingsSchema,
  type ModelList,
  ModelListSchema,
  type ProviderConfig,
  type ProviderConfigCreate,
  ProviderConfigSchema,
  type ProviderConfigUpdate,
  type ProviderTestResult,
  ProviderTestResultSchema,
} from '@assistente/contracts';
import type { HttpClient } from '../../lib/http/client.ts';
import { arrayOf } from '../../lib/http/schemas.ts';

const path = (id: string) => `/api/v1/settings/providers/${encodeURIComponent(id)}`;

/** The domain's AI providers (Admin) and its default model. */
export function createProvidersApi(http: HttpClient) {
  return {
    list: (): Promise<ProviderConfig[]> =>
      http.get('/api/v1/settings/providers', { schema: arrayOf(ProviderConfigSchema) }),
    create: (body: ProviderConfigCreate): Promise<ProviderConfig> =>
      http.post('/api/v1/settings/providers', { body, schema: ProviderConfigSchema }),
    update: (id: string, body: ProviderConfigUpdate): Promise<ProviderConfig> =>
      http.put(path(id), { body, schema: ProviderConfigSchema }),
    remove: (id: string): Promise<void> => http.delete(path(id)),
    test: (id: string): Promise<ProviderTestResult> =>
      http.post(`${path(id)}/test`, { schema: ProviderTestResultSchema }),
    getAi: (): Promise<AiSettings> => http.get('/api/v1/settings/ai', { schema: AiSettingsSchema }),
    putAi: (defaultModel: string | null): Promise<AiSettings> =>
      http.put('/api/v1/settings/ai', { body: { defaultModel }, schema: AiSettingsSchema }),
    /** What the user may pick: the domain's and the instance's models, and the default one. */
    listModels: (): Promise<ModelList> => http.get('/api/v1/models', { schema: ModelListSchema }),
  };
}
