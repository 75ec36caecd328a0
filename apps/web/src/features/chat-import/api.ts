import { ChatImportLimits, type ChatImportReport, ChatImportReportSchema } from '@assistente/contracts';
import { serverErrorMessage } from '../../lib/http/errors.ts';
import { NoAnswer, postFile, type XhrFactory } from '../../lib/upload/postFile.ts';
import { authorizedRequest } from '../auth/index.ts';

/** POST /api/v1/chats/import (docs/ARCHITECTURE.md#chat-import). */
export const IMPORT_PATH = '/api/v1/chats/import';

/** Why an import did not give a report: what the server said (status, code, `details`), or no answer. */
export class ChatImportError extends Error {
  override name = 'ChatImportError';
  constructor(
    message: string,
    /** null: no answer (network) or the upload was cancelled. */
    readonly status: number | null,
    readonly code: string | null,
    /** The server's `details.reason` (`limit`, `not_export`, `bad_zip`, …), or one of the page's own. */
    readonly reason: string | null,
    /** With reason `limit`: which one (`upload`, `entries`, `uncompressed`, `ratio`, `json`, `conversations`), and its value. */
    readonly limit: string | null = null,
    readonly max: number | null = null,
  ) {
    super(message);
  }
}

function errorOf(data: unknown): { code: string | null; details: Record<string, unknown> } {
  const error =
    typeof data === 'object' && data !== null && 'error' in data ? (data as { error: unknown }).error : null;
  if (typeof error !== 'object' || error === null) return { code: null, details: {} };
  const { code, details } = error as { code?: unknown; details?: unknown };
  return {
    code: typeof code === 'string' ? code : null,
    details: typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : {},
  };
}

/** Files the server takes: an export ZIP or its JSON, by name (the server checks the bytes). */
export const isImportable = (file: File) => /\.(zip|json)$/i.test(file.name);

/**
 * Uploads an export with upload progress (fetch has none in browsers yet) and answers the
 * server's report; rejects with a `ChatImportError`. Files of another kind or over the upload
 * limit are refused here, before any byte is sent.
 */
export async function uploadExport(
  file: File,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal; createXhr?: XhrFactory } = {},
): Promise<ChatImportReport> {
  if (!isImportable(file)) {
    throw new ChatImportError('Not a .zip or .json file', 415, 'UNSUPPORTED_MEDIA_TYPE', 'unsupported_file');
  }
  if (file.size > ChatImportLimits.maxUploadBytes) {
    throw new ChatImportError(
      'The file is larger than the upload limit',
      413,
      'PAYLOAD_TOO_LARGE',
      'limit',
      'upload',
      ChatImportLimits.maxUploadBytes,
    );
  }
  const { url, headers } = await authorizedRequest(IMPORT_PATH, 'chats');
  let answer: Awaited<ReturnType<typeof postFile>>;
  try {
    answer = await postFile({ url, headers, file, ...options });
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    throw new ChatImportError(error.message, null, null, error.reason === 'aborted' ? 'aborted' : 'network');
  }
  const { status, data } = answer;
  if (status >= 200 && status <= 299) {
    const parsed = ChatImportReportSchema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw new ChatImportError('Unexpected answer to the import', status, null, null);
  }
  const { code, details } = errorOf(data);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  throw new ChatImportError(
    serverErrorMessage(data) ?? `Import failed with status ${status}`,
    status,
    code,
    text(details.reason),
    text(details.limit),
    typeof details.max === 'number' ? details.max : null,
  );
}
