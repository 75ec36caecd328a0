import { type KnowledgeDocument, KnowledgeDocumentSchema } from '@assistente/contracts';
import { serverErrorMessage } from '../../lib/http/errors.ts';
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
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      const parsed = KnowledgeDocumentSchema.safeParse(data);
      if (xhr.status >= 200 && xhr.status <= 299 && parsed.success) {
        onProgress(1);
        resolve(parsed.data);
        return;
      }
      reject(new Error(serverErrorMessage(data) ?? `Upload failed with status ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('Network error during the upload'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
