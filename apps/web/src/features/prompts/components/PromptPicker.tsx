import { lazy, type Ref, Suspense } from 'react';

const PromptPickerPanel = lazy(() => import('./PromptPickerPanel.tsx'));

/** What the message box asks of an open picker. */
export interface PromptPickerHandle {
  /**
   * A key pressed in the message box while the picker is open: true when the picker took it
   * (arrows move, Enter and Tab choose), and the box should not act on it.
   */
  keyDown(event: {
    key: string;
    shiftKey: boolean;
    altKey: boolean;
    ctrlKey: boolean;
    metaKey: boolean;
  }): boolean;
}

export interface PromptPickerProps {
  ref?: Ref<PromptPickerHandle>;
  /** What follows the `/`. */
  query: string;
  /** The listbox's id, which the message box names in `aria-controls`. */
  listboxId: string;
  /** The highlighted option's id (the message box's `aria-activedescendant`), null for none. */
  onActiveChange: (id: string | null) => void;
  /** The chosen prompt's content, its variables filled: it replaces the `/query`. */
  onInsert: (content: string) => void;
  /** Escape in the variables form: back to the text as it was. */
  onCancel: () => void;
}

/**
 * The composer's `/` menu of prompts (docs/ARCHITECTURE.md#prompt-library). Its panel is a chunk of
 * its own, fetched the first time `/` is typed: a chat that never opens it (an embedded one) loads
 * none of it.
 */
export function PromptPicker(props: PromptPickerProps) {
  return (
    <Suspense fallback={null}>
      <PromptPickerPanel {...props} />
    </Suspense>
  );
}
