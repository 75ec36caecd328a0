import { Component, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { accountSession, isAuthenticated } from '../../features/auth/index.ts';
import { useStoreValue } from '../../ui/hooks/useStoreValue.ts';
import { afterNextPaint } from '../../ui/lazyModule.ts';
import { popup } from '../../ui/popup/popupStore.ts';

const loadPopup = () => import('./Popup.tsx');
const Popup = lazy(() => loadPopup().then((module) => ({ default: module.Popup })));

/** A popup whose code could not load (the network went away) shows nothing rather than blanking the page. */
class PopupBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Mounts the popup once one is first shown: pages that never notify never load its code. */
export function PopupHost() {
  const used = useStoreValue(popup.store, (state) => state.modelValue || state.id > 0);
  const signedIn = useStoreValue(accountSession, isAuthenticated);
  // Signed in, the popup is how failures are told, offline ones included: fetch its code once the
  // page has painted, while there is a network (offline, its chunk failed and blanked the page).
  useEffect(() => {
    if (!signedIn) return;
    return afterNextPaint(() => {
      void loadPopup().catch(() => undefined);
    });
  }, [signedIn]);
  if (!used) return null;
  return (
    <PopupBoundary>
      <Suspense fallback={null}>
        <Popup />
      </Suspense>
    </PopupBoundary>
  );
}
