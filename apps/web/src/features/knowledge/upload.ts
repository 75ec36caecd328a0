import { type KnowledgeDocument, KnowledgeDocumentSchema } from '@assistente/contracts';
import { serverErrorMessage } from '../../lib/http/errors.ts';
import { postFile } from '../../lib/upload/postFile.ts';
import { authorizedRequest } from '../auth/index.ts';
import { sourcePath } from './api.ts';

/**
 * Uploads one document to a files source with upload progress (fetch has none in browsers yet).
 * Rejects with the server's message.
 */
export async function uploadDocument(
  sourceId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<KnowledgeDocument> {
  const { url, headers } = await authorizedRequest(`${sourcePath(sourceId)}/documents`, 'accounts');
  const { status, data } = await postFile({ url, headers, file, onProgress });
  const parsed = KnowledgeDocumentSchema.safeParse(data);
  if (status >= 200 && status <= 299 && parsed.success) {
    onProgress(1);
    return parsed.data;
  }
  throw new Error(serverErrorMessage(data) ?? `Upload failed with status ${status}`);
}
