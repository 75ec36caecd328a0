import { createStore } from '@mantine/store';

/** The chat just deleted, offered for undo while the server keeps it restorable. */
export interface UndoState {
  chatId: string | null;
  title: string;
  /** Changes with each delete so a second one restarts the timer. */
  key: number;
}

export const undoStore = createStore<UndoState>({ chatId: null, title: '', key: 0 });

export function offerUndo(chatId: string, title: string): void {
  undoStore.setState((s) => ({ chatId, title, key: s.key + 1 }));
}

export function clearUndo(): void {
  undoStore.setState((s) => ({ ...s, chatId: null }));
}
