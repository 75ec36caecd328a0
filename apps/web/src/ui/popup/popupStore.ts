import { createStore, type MantineStore } from '@mantine/store';
import { reportError } from '../../lib/reporting.ts';

/** docs/ARCHITECTURE.md#interface-constants: auto-hide after 5000 ms; a swap waits 250 ms twice. */
export const POPUP_AUTO_HIDE_MS = 5000;
export const POPUP_SWAP_DELAY_MS = 250;

/** error, success and info have their own look; any other value shows the warning look. */
export type PopupStatus = 'error' | 'success' | 'info' | 'warning' | (string & {});

export interface PopupOptions {
  status: PopupStatus;
  title: string;
  description?: string;
  details?: string;
  retry?: () => unknown;
}

/** The popup state (docs/ARCHITECTURE.md#shell-routes-and-guards) plus whether the details dialog is open. */
export interface PopupState {
  modelValue: boolean;
  status: PopupStatus;
  title: string;
  description: string;
  details: string | undefined;
  retry: (() => unknown) | undefined;
  dialogOpen: boolean;
  /** Changes with every popup shown (animation key). */
  id: number;
}

export interface PopupController {
  store: MantineStore<PopupState>;
  show(options: PopupOptions): Promise<void>;
  hide(): void;
  /** Opens the details dialog (only when there are details or a retry action). */
  openDetails(): void;
  closeDetails(): void;
  /** Runs the retry action, hides the popup and closes the dialog. */
  tryAgain(): void;
}

const initialState: PopupState = {
  modelValue: false,
  status: 'info',
  title: '',
  description: '',
  details: undefined,
  retry: undefined,
  dialogOpen: false,
  id: 0,
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function hasPopupDetails(state: Pick<PopupState, 'details' | 'retry'>): boolean {
  return Boolean(state.details) || typeof state.retry === 'function';
}

/** The global notification's behaviour (docs/ARCHITECTURE.md#shell-routes-and-guards "Popup"), independent of React. */
export function createPopupController(): PopupController {
  const store = createStore<PopupState>({ ...initialState });
  let hideTimer: ReturnType<typeof setTimeout> | null = null;
  let sequence = 0;

  const set = (patch: Partial<PopupState>) => store.setState({ ...store.getState(), ...patch });

  function clearTimer(): void {
    if (hideTimer !== null) clearTimeout(hideTimer);
    hideTimer = null;
  }

  /** The auto-hide runs only while the details dialog is closed. */
  function armTimer(): void {
    clearTimer();
    if (store.getState().dialogOpen) return;
    hideTimer = setTimeout(hide, POPUP_AUTO_HIDE_MS);
  }

  function hide(): void {
    clearTimer();
    set({ modelValue: false, dialogOpen: false });
  }

  async function show(options: PopupOptions): Promise<void> {
    const mine = ++sequence;
    if (store.getState().modelValue) {
      hide();
      await wait(POPUP_SWAP_DELAY_MS);
      if (mine !== sequence) return;
      await wait(POPUP_SWAP_DELAY_MS);
      if (mine !== sequence) return;
    }
    set({
      modelValue: true,
      status: options.status,
      title: options.title,
      description: options.description ?? '',
      details: options.details,
      retry: options.retry,
      dialogOpen: false,
      id: mine,
    });
    armTimer();
  }

  function openDetails(): void {
    const state = store.getState();
    if (!state.modelValue || !hasPopupDetails(state)) return;
    clearTimer();
    set({ dialogOpen: true });
  }

  function closeDetails(): void {
    set({ dialogOpen: false });
    if (store.getState().modelValue) armTimer();
  }

  function tryAgain(): void {
    const { retry } = store.getState();
    try {
      const result = retry?.();
      if (result instanceof Promise) result.catch((error: unknown) => reportError(error, 'popup'));
    } catch (error) {
      reportError(error, 'popup');
    }
    hide();
  }

  return { store, show, hide, openDetails, closeDetails, tryAgain };
}

/** The app's one popup. */
export const popup = createPopupController();
