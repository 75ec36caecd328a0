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
import type { HttpClient } from '../../lib/http/client.ts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { arrayOf } from '../../lib/http/schemas.ts';

export const KNOWLEDGE_PATH = '/api/v1/integration/knowledge';
/** The most documents the API answers at once. */
const DOCUMENTS_PAGE = 200;

export const sourcePath = (id: string) => `${KNOWLEDGE_PATH}/${encodeURIComponent(id)}`;

/** The domain's knowledge sources (Admin) and the list Editors attach to santitos. */
export function createKnowledgeApi(http: HttpClient) {
  return {
    list: (): Promise<KnowledgeSource[]> =>
      http.get(KNOWLEDGE_PATH, { schema: arrayOf(KnowledgeSourceSchema) }),
    create: (body: KnowledgeSourceCreate): Promise<KnowledgeSource> =>
      http.post(KNOWLEDGE_PATH, { body, schema: KnowledgeSourceSchema }),
    update: (id: string, body: KnowledgeSourceUpdate): Promise<KnowledgeSource> =>
      http.put(sourcePath(id), { body, schema: KnowledgeSourceSchema }),
    remove: (id: string): Promise<void> => http.delete(sourcePath(id)),
    sync: (id: string): Promise<KnowledgeSource> =>
      http.post(`${sourcePath(id)}/sync`, { schema: KnowledgeSourceSchema }),
    testConnection: (body: ConfluenceSettings): Promise<ConfluenceTestResult> =>
      http.post(`${KNOWLEDGE_PATH}/test-connection`, { body, schema: ConfluenceTestResultSchema }),
    /** Every document of a source, page after page (a Confluence space can hold thousands). */
    documents: async (id: string): Promise<KnowledgeDocument[]> => {
      const all: KnowledgeDocument[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<KnowledgeDocument> = await getPage(
          http,
          `${sourcePath(id)}/documents`,
          KnowledgeDocumentSchema,
          { limit: DOCUMENTS_PAGE, ...(cursor ? { cursor } : {}) },
        );
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    },
    removeDocument: (id: string, documentId: string): Promise<void> =>
      http.delete(`${sourcePath(id)}/documents/${encodeURIComponent(documentId)}`),
    choices: (): Promise<KnowledgeSourceChoice[]> =>
      http.get(`${KNOWLEDGE_PATH}/choices`, { schema: arrayOf(KnowledgeSourceChoiceSchema) }),
  };
}
