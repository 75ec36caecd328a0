import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import type { UploadItem } from '../hooks/useUploads.ts';
import { Composer, type ComposerHandle, type ComposerUploads, isSendKey } from './Composer.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

function uploads(items: UploadItem[] = []): ComposerUploads {
  return {
    items,
    uploading: items.some((i) => i.status === 'uploading'),
    ids: items.flatMap((i) => (i.attachment ? [i.attachment.attachmentId] : [])),
    add: vi.fn(),
    remove: vi.fn(),
    clear: vi.fn(),
  };
}

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn((_text: string, _ids: string[]) => true);
  const onStop = vi.fn();
  renderWithProviders(<Composer offline={false} busy={false} onSend={onSend} onStop={onStop} {...props} />);
  const input = screen.getByRole('textbox', { name: 'Mensagem' }) as HTMLTextAreaElement;
  return { onSend, onStop, input };
}

/** An upload that finished: a.txt, stored as attachment att-1. */
const done: UploadItem = {
  key: 'u1',
  name: 'a.txt',
  size: 10,
  progress: 1,
  status: 'done',
  attachment: {
    attachmentId: 'att-1',
    chatId: 'c',
    name: 'a.txt',
    contentType: 'text/plain',
    size: 10,
    createdAt: '2026-01-01T00:00:00.000Z',
    url: '/x',
  },
};

describe('Composer', () => {
  it('sends with Enter and clears the box', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'Olá, mundo{Enter}');
    expect(onSend).toHaveBeenCalledWith('Olá, mundo', []);
    expect(input.value).toBe('');
  });

  it('makes a new line with Shift+Enter', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'linha 1{Shift>}{Enter}{/Shift}linha 2');
    expect(onSend).not.toHaveBeenCalled();
    expect(input.value).toBe('linha 1\nlinha 2');
    await userEvent.type(input, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('linha 1\nlinha 2', []);
  });

  it('does not send while an IME composition is under way', () => {
    expect(
      isSendKey({
        key: 'Enter',
        shiftKey: false,
        altKey: false,
        ctrlKey: false,
        metaKey: false,
        nativeEvent: { isComposing: true },
      }),
    ).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, altKey: false, ctrlKey: false, metaKey: false })).toBe(
      true,
    );
  });

  it('does not send an empty message', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Enviar mensagem' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('keeps the text when the message could not be sent', async () => {
    const onSend = vi.fn(() => false);
    const { input } = setup({ onSend });
    await userEvent.type(input, 'não foi{Enter}');
    expect(onSend).toHaveBeenCalled();
    expect(input.value).toBe('não foi');
  });

  it('takes back the text of a send the server refused, before anything typed since', async () => {
    const ref = createRef<ComposerHandle>();
    const { onSend, input } = setup({ ref });
    await userEvent.type(input, 'Olá, tudo bem?{Enter}');
    expect(onSend).toHaveBeenCalledWith('Olá, tudo bem?', []);
    expect(input.value).toBe('');
    act(() => ref.current?.restore('Olá, tudo bem?'));
    expect(input.value).toBe('Olá, tudo bem?');

    await userEvent.type(input, '{Enter}e mais');
    act(() => ref.current?.restore('Olá, tudo bem?'));
    expect(input.value).toBe('Olá, tudo bem?\ne mais');
  });

  it('lets the user type but not send while offline, and says why', async () => {
    const { onSend, input } = setup({ offline: true });
    expect(input.placeholder).toContain('Sem conexão');
    await userEvent.type(input, 'depois{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(input.value).toBe('depois');
    expect((screen.getByRole('button', { name: 'Enviar mensagem' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows stop while an answer is generated', () => {
    const { onStop } = setup({ busy: true });
    fireEvent.click(screen.getByRole('button', { name: 'Parar resposta' }));
    expect(onStop).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Enviar mensagem' })).toBeNull();
  });

  it('waits for uploads and sends their attachment ids', async () => {
    const pending: UploadItem = { key: 'u2', name: 'b.pdf', size: 2048, progress: 0.4, status: 'uploading' };
    const first = setup({ uploads: uploads([done, pending]) });
    expect(screen.getByRole('progressbar', { name: 'Enviando b.pdf' })).toBeTruthy();
    await userEvent.type(first.input, 'veja{Enter}');
    expect(first.onSend).not.toHaveBeenCalled();
  });

  it('sends a message with finished attachments only', async () => {
    const files = uploads([done]);
    const { onSend, input } = setup({ uploads: files });
    await userEvent.type(input, 'veja{Enter}');
    expect(onSend).toHaveBeenCalledWith('veja', ['att-1']);
    expect(files.clear).toHaveBeenCalled();
  });

  it('shows a refused file and blocks sending until it is removed', async () => {
    const refused: UploadItem = {
      key: 'u3',
      name: 'big.bin',
      size: 99,
      progress: 0,
      status: 'error',
      error: { key: 'chats.attachments.too_large', vars: { size: '20 MB' } },
    };
    const files = uploads([refused]);
    const { onSend, input } = setup({ uploads: files });
    expect(screen.getByText('Arquivo grande demais (máximo de 20 MB).')).toBeTruthy();
    await userEvent.type(input, 'x{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remover big.bin' }));
    expect(files.remove).toHaveBeenCalledWith('u3');
  });
});
