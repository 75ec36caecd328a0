import type { Attachment } from '@assistente/contracts';
import { isObject } from '../../../lib/guards.ts';
import { serverErrorMessage } from '../../../lib/http/errors.ts';
import { NoAnswer, postFile, type UploadAnswer, type XhrFactory } from '../../../lib/upload/postFile.ts';

export class UploadError extends Error {
  override name = 'UploadError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
  }
}

function errorCode(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  const error = (data as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/**
 * Uploads one file as multipart with upload progress (fetch has no upload progress in
 * browsers yet). Resolves with the stored attachment; rejects with an `UploadError`.
 */
export async function uploadFile(options: {
  url: string;
  headers: Record<string, string>;
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  createXhr?: XhrFactory;
}): Promise<Attachment> {
  let answer: UploadAnswer;
  try {
    answer = await postFile(options);
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    throw new UploadError(error.message, null, error.reason === 'aborted' ? 'ABORTED' : null);
  }
  const { status, data } = answer;
  if (status >= 200 && status <= 299) {
    // The server's own answer, taken as its contract type (see typed() in lib/http/schemas.ts).
    if (!isObject(data) || typeof data.attachmentId !== 'string')
      throw new UploadError('Unexpected answer to the upload', status, null);
    options.onProgress?.(1);
    return data as unknown as Attachment;
  }
  throw new UploadError(
    serverErrorMessage(data) ?? `Upload failed with status ${status}`,
    status,
    errorCode(data),
  );
}
