import { type Attachment, AttachmentLimits } from '@assistente/contracts';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadedRuntimeConfig, setRuntimeConfig } from '../../../lib/config/runtimeConfig.ts';
import { testConfig } from '../../../test/fakeServices.ts';
import { useUploads } from './useUploads.ts';

const MB = 1024 * 1024;

const upload = vi.hoisted(() => ({ uploadFile: vi.fn() }));
vi.mock('../lib/upload.ts', () => ({ UploadError: class extends Error {}, uploadFile: upload.uploadFile }));
vi.mock('../../auth/requests.ts', () => ({
  authorizedRequest: async (path: string) => ({ url: path, headers: {} }),
}));

/** A file that says it has `size` bytes without holding them. */
function fileOf(name: string, size: number): File {
  const file = new File(['x'], name, { type: 'application/pdf' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const before = loadedRuntimeConfig();
afterEach(() => {
  if (before) setRuntimeConfig(before);
  upload.uploadFile.mockReset();
});

describe('useUploads, the size limit', () => {
  it('is the server’s UPLOAD_MAX_BYTES from the runtime config, not a number of its own', async () => {
    // A server that takes 25 MB: a 21 MB file is the server's to take, a 26 MB one is refused here.
    setRuntimeConfig({ ...testConfig, uploadMaxBytes: 25 * MB });
    expect(25 * MB).toBeGreaterThan(AttachmentLimits.maxBytes);
    upload.uploadFile.mockImplementation(
      async ({ file }: { file: File }): Promise<Attachment> => ({
        attachmentId: '44444444-4444-4444-8444-444444444444',
        chatId: 'c1',
        name: file.name,
        contentType: 'application/pdf',
        size: file.size,
        createdAt: '2026-01-01T00:00:00.000Z',
        url: '/x',
      }),
    );
    const { result } = renderHook(() => useUploads(async () => 'c1'));
    act(() => result.current.add([fileOf('grande.pdf', 21 * MB), fileOf('enorme.pdf', 26 * MB)]));

    await waitFor(() => expect(result.current.items[0]?.status).toBe('done'));
    expect(upload.uploadFile).toHaveBeenCalledTimes(1);
    expect(result.current.items[1]).toMatchObject({
      status: 'error',
      error: { key: 'chats.attachments.too_large', vars: { size: '25 MB' } },
    });
  });

  it('refuses before any upload what a smaller server limit would refuse, naming it', () => {
    setRuntimeConfig({ ...testConfig, uploadMaxBytes: 5 * MB });
    const { result } = renderHook(() => useUploads(async () => 'c1'));
    act(() => result.current.add([fileOf('seis.pdf', 6 * MB)]));
    expect(result.current.items[0]).toMatchObject({
      status: 'error',
      error: { key: 'chats.attachments.too_large', vars: { size: '5 MB' } },
    });
    expect(upload.uploadFile).not.toHaveBeenCalled();
  });
});
