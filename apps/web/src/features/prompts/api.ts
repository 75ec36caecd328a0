import {
  type Prompt,
  type PromptCreate,
  PromptSchema,
  type PromptScope,
  type PromptUpdate,
  type PromptVersion,
  PromptVersionSchema,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

/** What a list asks for: a search over title and command, and one scope or all of them. */
export interface PromptListParams {
  q?: string;
  scope?: PromptScope;
}

/** The composer's picker reads this many at once and filters them as the person types. */
export const PICKER_LIMIT = 200;
const PAGE_SIZE = 50;

/** /api/v1/prompts (docs/ARCHITECTURE.md#prompt-library). */
export function createPromptsApi(client: ApiClient) {
  return {
    list: (params: PromptListParams, cursor?: string, limit = PAGE_SIZE): Promise<Page<Prompt>> =>
      page(
        PromptSchema,
        client.GET('/api/v1/prompts', {
          params: { query: { q: params.q || undefined, scope: params.scope, limit, cursor } },
        }),
      ),
    create: (body: PromptCreate): Promise<Prompt> =>
      parsed(PromptSchema, client.POST('/api/v1/prompts', { body })),
    update: (id: string, body: PromptUpdate): Promise<Prompt> =>
      // A 409 (the command is taken) is an answer to show at once, not a reason to try again.
      parsed(PromptSchema, client.PUT('/api/v1/prompts/{id}', { params: { path: { id } }, body, retry: 0 })),
    remove: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/prompts/{id}', { params: { path: { id } } })),
    versions: (id: string): Promise<PromptVersion[]> =>
      parsed(
        arrayOf(PromptVersionSchema),
        client.GET('/api/v1/prompts/{id}/versions', { params: { path: { id } } }),
      ),
    restore: (id: string, version: number): Promise<Prompt> =>
      parsed(
        PromptSchema,
        client.POST('/api/v1/prompts/{id}/versions/{version}/restore', {
          params: { path: { id, version } },
        }),
      ),
  };
}
