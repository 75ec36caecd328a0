import { describe, expect, it, vi } from 'vitest';
import { NoAnswer, postFile } from './postFile.ts';

/** A stand-in XMLHttpRequest that records what was sent and answers when told. */
function fakeXhr() {
  const xhr = {
    upload: {} as { onprogress?: (event: ProgressEventInit) => void },
    headers: {} as Record<string, string>,
    sent: null as FormData | null,
    status: 0,
    responseText: '',
    open: vi.fn(),
    abort: vi.fn(() => xhr.onabort?.()),
    setRequestHeader(name: string, value: string) {
      xhr.headers[name] = value;
    },
    send(form: FormData) {
      xhr.sent = form;
    },
    onload: undefined as (() => void) | undefined,
    onerror: undefined as (() => void) | undefined,
    onabort: undefined as (() => void) | undefined,
  };
  return xhr;
}

const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });

describe('postFile', () => {
  it('posts the file as multipart with the headers, reports progress and hands back the JSON answer', async () => {
    const xhr = fakeXhr();
    const onProgress = vi.fn();
    const answer = postFile({
      url: '/api/up',
      headers: { Authorization: 'Bearer t' },
      file,
      onProgress,
      createXhr: () => xhr as unknown as XMLHttpRequest,
    });
    expect(xhr.open).toHaveBeenCalledWith('POST', '/api/up');
    expect(xhr.headers).toEqual({ Authorization: 'Bearer t', Accept: 'application/json' });
    expect(((xhr.sent as FormData).get('file') as File).name).toBe('notes.txt');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 2, total: 0 });
    expect(onProgress.mock.calls).toEqual([[0.25]]);
    xhr.status = 422;
    xhr.responseText = '{"error":{"code":"X"}}';
    xhr.onload?.();
    await expect(answer).resolves.toEqual({ status: 422, data: { error: { code: 'X' } } });
  });

  it('answers undefined for a body that is not JSON', async () => {
    const xhr = fakeXhr();
    const answer = postFile({
      url: '/u',
      headers: {},
      file,
      createXhr: () => xhr as unknown as XMLHttpRequest,
    });
    xhr.status = 502;
    xhr.responseText = '<html>Bad gateway</html>';
    xhr.onload?.();
    await expect(answer).resolves.toEqual({ status: 502, data: undefined });
  });

  it('rejects with the reason when no answer comes: the network failed, or the signal cancelled it', async () => {
    const failed = fakeXhr();
    const lost = postFile({
      url: '/u',
      headers: {},
      file,
      createXhr: () => failed as unknown as XMLHttpRequest,
    });
    failed.onerror?.();
    await expect(lost).rejects.toMatchObject({
      reason: 'network',
      message: 'Network error during the upload',
    });

    const cancelled = fakeXhr();
    const controller = new AbortController();
    const stopped = postFile({
      url: '/u',
      headers: {},
      file,
      signal: controller.signal,
      createXhr: () => cancelled as unknown as XMLHttpRequest,
    });
    controller.abort();
    await expect(stopped).rejects.toBeInstanceOf(NoAnswer);
    await expect(stopped).rejects.toMatchObject({ reason: 'aborted', message: 'Upload cancelled' });
  });
});
