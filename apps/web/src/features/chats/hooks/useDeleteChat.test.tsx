import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { clearUndo, undoStore } from '../lib/undo.ts';
import { useDeleteChat } from './useChatsList.ts';

afterEach(() => {
  clearUndo();
  resetSession();
});

describe('useDeleteChat', () => {
  it('offers the undo even when the list that deleted the chat is gone before the answer', async () => {
    const services = installFakeServices();
    signInSession();
    let answer: (() => void) | undefined;
    Object.assign(services.chatsHttp, {
      delete: () => new Promise<void>((resolve) => (answer = resolve)),
    });
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => useDeleteChat(), { wrapper });
    act(() => result.current.mutate({ chatId: 'c1', title: 'Orçamento' }));
    await waitFor(() => expect(answer).toBeDefined());
    // A phone's list closes as the open chat is deleted: the call's component unmounts first.
    unmount();
    expect(undoStore.getState().chatId).toBeNull();
    act(() => answer?.());
    await waitFor(() => expect(undoStore.getState()).toMatchObject({ chatId: 'c1', title: 'Orçamento' }));
  });
});
