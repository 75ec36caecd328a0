import {
  type ConfluenceSettings,
  type ConfluenceTestResult,
  ConfluenceTestResultSchema,
  type KnowledgeDocument,
  KnowledgeDocumentSchema,
  type KnowledgeSource,
  type KnowledgeSourceChoice,
  KnowledgeSourceChoiceSchema,
  type KnowledgeSourceCreate,
  KnowledgeSourceSchema,
  type KnowledgeSourceUpdate,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

export const KNOWLEDGE_PATH = '/api/v1/integration/knowledge';
/** The most documents the API answers at once. */
const DOCUMENTS_PAGE = 200;

export const sourcePath = (id: string) => `${KNOWLEDGE_PATH}/${encodeURIComponent(id)}`;
const byId = (id: string) => ({ params: { path: { id } } });

/** The domain's knowledge sources (Admin) and the list Editors attach to santitos. */
export function createKnowledgeApi(client: ApiClient) {
  return {
    list: (): Promise<KnowledgeSource[]> =>
      parsed(arrayOf(KnowledgeSourceSchema), client.GET('/api/v1/integration/knowledge')),
    create: (body: KnowledgeSourceCreate): Promise<KnowledgeSource> =>
      parsed(KnowledgeSourceSchema, client.POST('/api/v1/integration/knowledge', { body })),
    update: (id: string, body: KnowledgeSourceUpdate): Promise<KnowledgeSource> =>
      parsed(KnowledgeSourceSchema, client.PUT('/api/v1/integration/knowledge/{id}', { ...byId(id), body })),
    remove: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/integration/knowledge/{id}', byId(id))),
    sync: (id: string): Promise<KnowledgeSource> =>
      parsed(KnowledgeSourceSchema, client.POST('/api/v1/integration/knowledge/{id}/sync', byId(id))),
    testConnection: (body: ConfluenceSettings): Promise<ConfluenceTestResult> =>
      parsed(
        ConfluenceTestResultSchema,
        client.POST('/api/v1/integration/knowledge/test-connection', { body }),
      ),
    /** Every document of a source, page after page (a Confluence space can hold thousands). */
    documents: async (id: string): Promise<KnowledgeDocument[]> => {
      const all: KnowledgeDocument[] = [];
      let cursor: string | undefined;
      do {
        const next: Page<KnowledgeDocument> = await page(
          KnowledgeDocumentSchema,
          client.GET('/api/v1/integration/knowledge/{id}/documents', {
            params: { path: { id }, query: { limit: DOCUMENTS_PAGE, ...(cursor ? { cursor } : {}) } },
          }),
        );
        all.push(...next.items);
        cursor = next.nextCursor ?? undefined;
      } while (cursor);
      return all;
    },
    removeDocument: (id: string, documentId: string): Promise<void> =>
      done(
        client.DELETE('/api/v1/integration/knowledge/{id}/documents/{documentId}', {
          params: { path: { id, documentId } },
        }),
      ),
    choices: (): Promise<KnowledgeSourceChoice[]> =>
      parsed(arrayOf(KnowledgeSourceChoiceSchema), client.GET('/api/v1/integration/knowledge/choices')),
  };
}
