import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as choices from './choices.ts';
import * as documents from './documents.ts';
import { newDocumentId, newSourceId } from './service-ids.ts';
import * as sources from './sources.ts';
import * as state from './state.ts';

export { newDocumentId, newSourceId };

/**
 * The knowledge sources service (docs/ARCHITECTURE.md#knowledge): Admin API over a domain's sources
 * and documents. It only names the operations (docs/ARCHITECTURE.md#service-style); each lives in
 * the file of its concern: sources.ts, documents.ts, choices.ts, over the shared state of state.ts.
 */
export function knowledgeService(ctx: AppContext) {
  const s = state.createKnowledgeState(ctx);
  return {
    ingest: s.ingest,
    sync: s.sync,
    ...withState(s, {
      adminDomain: state.adminDomain,
      openToken: state.openToken,
      close: state.close,

      list: sources.list,
      get: sources.get,
      create: sources.create,
      update: sources.update,
      remove: sources.remove,
      syncNow: sources.syncNow,
      testConnection: sources.testConnection,

      documents: documents.documents,
      upload: documents.upload,
      file: documents.file,
      removeDocument: documents.removeDocument,

      sourceNames: choices.sourceNames,
      choices: choices.choices,
    }),
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
