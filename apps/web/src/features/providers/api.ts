import {
  type AiSettings,
  AiSettingsSchema,
  type ModelAccess,
  ModelAccessSchema,
  type ModelList,
  ModelListSchema,
  type ProviderConfig,
  type ProviderConfigCreate,
  ProviderConfigSchema,
  type ProviderConfigUpdate,
  type ProviderTestResult,
  ProviderTestResultSchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/** The domain's AI providers (Admin) and its default model. */
export function createProvidersApi(client: ApiClient) {
  return {
    list: (): Promise<ProviderConfig[]> =>
      parsed(arrayOf(ProviderConfigSchema), client.GET('/api/v1/settings/providers')),
    create: (body: ProviderConfigCreate): Promise<ProviderConfig> =>
      parsed(ProviderConfigSchema, client.POST('/api/v1/settings/providers', { body })),
    update: (id: string, body: ProviderConfigUpdate): Promise<ProviderConfig> =>
      parsed(ProviderConfigSchema, client.PUT('/api/v1/settings/providers/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/settings/providers/{id}', byId(id))),
    test: (id: string): Promise<ProviderTestResult> =>
      parsed(ProviderTestResultSchema, client.POST('/api/v1/settings/providers/{id}/test', byId(id))),
    getAi: (): Promise<AiSettings> => parsed(AiSettingsSchema, client.GET('/api/v1/settings/ai')),
    putAi: (defaultModel: string | null): Promise<AiSettings> =>
      parsed(AiSettingsSchema, client.PUT('/api/v1/settings/ai', { body: { defaultModel } })),
    /** What the user may pick: the domain's and the instance's models, and the default one. */
    listModels: (): Promise<ModelList> => parsed(ModelListSchema, client.GET('/api/v1/models')),
    getAccess: (): Promise<ModelAccess> =>
      parsed(ModelAccessSchema, client.GET('/api/v1/settings/model_access')),
    // A refusal (a bad pattern, a department of another domain) is an answer: shown, not retried.
    putAccess: (body: ModelAccess): Promise<ModelAccess> =>
      parsed(ModelAccessSchema, client.PUT('/api/v1/settings/model_access', { body, retry: 0 })),
  };
}
