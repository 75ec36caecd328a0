import { type Export, type ExportRequest, ExportSchema } from '@assistente/contracts';
import { dispositionFileName, saveBlob } from '../../lib/http/authorizedRequest.ts';
import type { ApiClient } from '../../lib/http/client.ts';
import { parsed } from '../../lib/http/schemas.ts';
import { currentLanguage } from '../../lib/i18n/index.ts';
import { authorizedRequest } from '../auth/index.ts';

/** POST /api/v1/me/export (one's own) and /api/v1/export (an Admin's), docs/ARCHITECTURE.md#export-and-erasure. */
export function createDataExportApi(client: ApiClient) {
  return {
    createMine: (): Promise<Export> => parsed(ExportSchema, client.POST('/api/v1/me/export')),
    create: (request: ExportRequest): Promise<Export> =>
      parsed(ExportSchema, client.POST('/api/v1/export', { body: request })),
  };
}

/** Why a download stopped: the server's status, or the connection (0). */
export class DownloadFailed extends Error {
  constructor(readonly status: number) {
    super(`Export download failed (${status})`);
  }
}

/**
 * Downloads an export's ZIP with the caller's credentials, as every protected file is
 * (docs/ARCHITECTURE.md#calling-the-api), reporting the bytes received so far, then saves it.
 * The Markdown's labels and dates follow this screen's language and time zone.
 */
export async function downloadExport(made: Export, onBytes: (bytes: number) => void): Promise<string> {
  const query = new URLSearchParams({
    locale: currentLanguage(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const { url, headers } = await authorizedRequest(`${made.downloadUrl}?${query}`, 'accounts');
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    throw new DownloadFailed(0);
  }
  if (!response.ok || !response.body) throw new DownloadFailed(response.status);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      // The server ends a ZIP it could not finish by breaking the connection: never a partial save.
      throw new DownloadFailed(0);
    }
    if (next.done) break;
    chunks.push(next.value);
    bytes += next.value.byteLength;
    onBytes(bytes);
  }
  const name = dispositionFileName(response.headers.get('content-disposition'), 'assistente-export.zip');
  saveBlob(new Blob(chunks as BlobPart[], { type: 'application/zip' }), name);
  return name;
}
