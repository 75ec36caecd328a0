/** Something with XMLHttpRequest's upload surface (a fake in tests). */
export type XhrFactory = () => XMLHttpRequest;

/** What the server answered an upload: its status and its JSON body (undefined when empty or not JSON). */
export interface UploadAnswer {
  status: number;
  data: unknown;
}

/** An upload that got no answer: the network failed, or it was cancelled. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
  constructor(readonly reason: 'network' | 'aborted') {
    super(reason === 'network' ? 'Network error during the upload' : 'Upload cancelled');
  }
}

/**
 * Posts one file as multipart with upload progress (fetch has no upload progress in browsers yet).
 * Resolves with whatever the server answered, for the caller to read; rejects with `NoAnswer`.
 */
export function postFile(options: {
  url: string;
  headers: Record<string, string>;
  file: File;
  onProgress?: ((fraction: number) => void) | undefined;
  signal?: AbortSignal | undefined;
  createXhr?: XhrFactory | undefined;
}): Promise<UploadAnswer> {
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
      resolve({ status: xhr.status, data });
    };
    xhr.onerror = () => reject(new NoAnswer('network'));
    xhr.onabort = () => reject(new NoAnswer('aborted'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', options.file, options.file.name);
    xhr.send(form);
  });
}
