import { createStore } from '@mantine/store';
import { useStoreValue } from './hooks/useStoreValue.ts';

/** The global UI flags; the three sidebars are described in docs/ARCHITECTURE.md#shell-routes-and-guards. */
export interface UiState {
  /** A navigation or another app-wide load is under way: the top progress bar shows. */
  loadingApp: boolean;
  /** The first auth state is being resolved: the large spinner shows. */
  loadingAuthPlugin: boolean;
  loadingCurrentChat: boolean;
  loadingChatsList: boolean;
  loadedChatsListOnce: boolean;
  /** The chats list panel (chats layout). */
  chatSidebarModel: boolean;
  /** The main navigation drawer (below the md breakpoint). */
  mainSidebarModel: boolean;
  /** The open chat's parameters panel. */
  customParamsSidebar: boolean;
}

const initialUiState: UiState = {
  loadingApp: false,
  loadingAuthPlugin: true,
  loadingCurrentChat: false,
  loadingChatsList: false,
  loadedChatsListOnce: false,
  chatSidebarModel: true,
  mainSidebarModel: false,
  customParamsSidebar: false,
};

export const uiStore = createStore<UiState>({ ...initialUiState });

export function setUi(patch: Partial<UiState>): void {
  uiStore.setState((state) => ({ ...state, ...patch }));
}

/** One flag, without re-rendering on the others. */
export function useUiFlag<K extends keyof UiState>(key: K): UiState[K] {
  return useStoreValue(uiStore, (state) => state[key]);
}

/** Resolves once the first auth state has been handled (loadingAuthPlugin false). */
export function waitForAuth(): Promise<void> {
  if (!uiStore.getState().loadingAuthPlugin) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = uiStore.subscribe((state) => {
      if (!state.loadingAuthPlugin) {
        unsubscribe();
        resolve();
      }
    });
  });
}
