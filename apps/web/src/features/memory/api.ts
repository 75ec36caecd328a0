import {
  type Memory,
  type MemoryList,
  MemoryListSchema,
  MemorySchema,
  type MemorySettings,
  MemorySettingsSchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { done, parsed } from '../../lib/http/schemas.ts';

/** /api/v1/me/memories (one's own) and /api/v1/settings/memory (an Admin's switch), docs/ARCHITECTURE.md#memory. */
export function createMemoryApi(client: ApiClient) {
  return {
    list: (): Promise<MemoryList> => parsed(MemoryListSchema, client.GET('/api/v1/me/memories')),
    create: (text: string): Promise<Memory> =>
      parsed(MemorySchema, client.POST('/api/v1/me/memories', { body: { text } })),
    update: (id: string, text: string): Promise<Memory> =>
      parsed(
        MemorySchema,
        client.PUT('/api/v1/me/memories/{id}', { params: { path: { id } }, body: { text } }),
      ),
    remove: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/me/memories/{id}', { params: { path: { id } } })),
    getSettings: (): Promise<MemorySettings> =>
      parsed(MemorySettingsSchema, client.GET('/api/v1/settings/memory')),
    putSettings: (enabled: boolean): Promise<MemorySettings> =>
      parsed(MemorySettingsSchema, client.PUT('/api/v1/settings/memory', { body: { enabled } })),
  };
}
