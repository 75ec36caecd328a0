import { type PopupOptions, popup } from './popupStore.ts';

/** `usePopup().show({ status, title, description, details?, retry? })`. */
export function usePopup(): { show: (options: PopupOptions) => Promise<void>; hide: () => void } {
  return { show: popup.show, hide: popup.hide };
}
