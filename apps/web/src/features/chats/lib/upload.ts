import { type Attachment, AttachmentSchema } from '@assistente/contracts';
import { serverErrorMessage } from '../../../lib/http/errors.ts';

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

/** Something with XMLHttpRequest's upload surface (a fake in tests). */
export type XhrFactory = () => XMLHttpRequest;

/**
 * Uploads one file as multipart with upload progress (fetch has no upload progress in
 * browsers yet). Resolves with the stored attachment; rejects with an `UploadError`.
 */
export function uploadFile(options: {
  url: string;
  headers: Record<string, string>;
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  createXhr?: XhrFactory;
}): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const xhr = (options.createXhr ?? (() => new XMLHttpRequest()))();
    xhr.open('POST', options.url);
    for (const [name, value] of Object.entries(options.headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status <= 299) {
        const parsed = AttachmentSchema.safeParse(data);
        if (parsed.success) {
          options.onProgress?.(1);
          resolve(parsed.data);
        } else reject(new UploadError('Unexpected answer to the upload', xhr.status, null));
        return;
      }
      reject(
        new UploadError(
          serverErrorMessage(data) ?? `Upload failed with status ${xhr.status}`,
          xhr.status,
          errorCode(data),
        ),
      );
    };
    xhr.onerror = () => reject(new UploadError('Network error during the upload', null, null));
    xhr.onabort = () => reject(new UploadError('Upload cancelled', null, 'ABORTED'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', options.file, options.file.name);
    xhr.send(form);
  });
}
