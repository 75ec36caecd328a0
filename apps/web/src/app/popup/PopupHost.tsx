import { lazy, Suspense } from 'react';
import { useStoreValue } from '../../ui/hooks/useStoreValue.ts';
import { popup } from './popupStore.ts';

const Popup = lazy(() => import('./Popup.tsx').then((module) => ({ default: module.Popup })));

/** Mounts the popup once one is first shown: pages that never notify never load its code. */
export function PopupHost() {
  const used = useStoreValue(popup.store, (state) => state.modelValue || state.id > 0);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <Popup />
    </Suspense>
  );
}
