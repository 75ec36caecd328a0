import { ChatImportLimits } from '@assistente/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeServices, resetSession, signInSession } from '../../test/fakeServices.ts';
import { ChatImportError, uploadExport } from './api.ts';

afterEach(() => resetSession());

/** A stand-in XMLHttpRequest that answers `status` and `body` as soon as it is sent. */
function answering(status: number, body: unknown) {
  const sent = vi.fn();
  const xhr = {
    upload: {},
    status,
    responseText: JSON.stringify(body),
    open: vi.fn(),
    setRequestHeader: vi.fn(),
    send(form: FormData) {
      sent(form);
      queueMicrotask(() => xhr.onload?.());
    },
    onload: undefined as (() => void) | undefined,
  };
  return { createXhr: () => xhr as unknown as XMLHttpRequest, sent, open: xhr.open };
}

const zip = (size?: number) => {
  const file = new File(['PK'], 'export.zip', { type: 'application/zip' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

async function refusal(p: Promise<unknown>): Promise<ChatImportError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ChatImportError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('uploadExport', () => {
  it('posts the file to the import route as the signed-in person and answers the report', async () => {
    installFakeServices();
    signInSession();
    const xhr = answering(200, { format: 'claude', imported: 1, skipped: 0, failed: [], items: [] });
    const report = await uploadExport(zip(), { createXhr: xhr.createXhr });
    expect(report).toMatchObject({ format: 'claude', imported: 1 });
    expect(String(xhr.open.mock.calls[0]?.[1])).toContain('/api/v1/chats/import');
    expect(((xhr.sent.mock.calls[0] as [FormData])[0].get('file') as File).name).toBe('export.zip');
  });

  it('refuses, before sending a byte, a file of another kind and one over the upload limit', async () => {
    installFakeServices();
    signInSession();
    const xhr = answering(200, {});
    const html = await refusal(uploadExport(new File(['x'], 'chat.html'), { createXhr: xhr.createXhr }));
    expect([html.status, html.reason]).toEqual([415, 'unsupported_file']);
    const big = await refusal(
      uploadExport(zip(ChatImportLimits.maxUploadBytes + 1), { createXhr: xhr.createXhr }),
    );
    expect([big.status, big.reason, big.limit, big.max]).toEqual([
      413,
      'limit',
      'upload',
      ChatImportLimits.maxUploadBytes,
    ]);
    expect(xhr.sent).not.toHaveBeenCalled();
  });

  it('carries the server’s refusal: status, code, reason and limit', async () => {
    installFakeServices();
    signInSession();
    const xhr = answering(413, {
      error: {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The ZIP unpacks to more than 1024 MiB',
        details: { reason: 'limit', limit: 'uncompressed', max: ChatImportLimits.maxUncompressedBytes },
      },
    });
    const err = await refusal(uploadExport(zip(), { createXhr: xhr.createXhr }));
    expect(err).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'limit',
      limit: 'uncompressed',
      max: ChatImportLimits.maxUncompressedBytes,
      message: 'The ZIP unpacks to more than 1024 MiB',
    });
  });
});
