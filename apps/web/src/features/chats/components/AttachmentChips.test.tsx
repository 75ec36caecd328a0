import type { Attachment } from '@assistente/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { AttachmentChips } from './AttachmentChips.tsx';

const requests = vi.hoisted(() => ({ fetchBlob: vi.fn(), downloadFile: vi.fn(async () => undefined) }));
vi.mock('../../auth/requests.ts', () => ({
  authorizedRequest: async (path: string) => ({ url: path, headers: {} }),
  fetchBlob: requests.fetchBlob,
  downloadFile: requests.downloadFile,
}));

beforeAll(async () => {
  await loadTestTexts();
});

const file = (id: string, removedAt?: string): Attachment => ({
  attachmentId: id,
  chatId: 'c1',
  name: `${id}.pdf`,
  contentType: 'application/pdf',
  size: 2048,
  createdAt: '2026-01-01T00:00:00.000Z',
  url: `/api/v1/chats/c1/attachments/${id}`,
  ...(removedAt ? { removedAt } : {}),
});

describe('a file retention deleted', () => {
  it('keeps its name, says it was removed, and offers no download', () => {
    renderWithProviders(
      <AttachmentChips attachments={[file('kept'), file('gone', '2026-02-01T00:00:00.000Z')]} />,
    );
    const gone = screen.getByTestId('attachment-removed');
    expect(gone.textContent).toContain('gone.pdf');
    expect(gone.textContent).toContain('Removido pela regra de retenção');
    fireEvent.click(gone);
    expect(requests.downloadFile).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('attachment'));
    expect(requests.downloadFile).toHaveBeenCalledWith('/api/v1/chats/c1/attachments/kept', 'kept.pdf');
  });
});
