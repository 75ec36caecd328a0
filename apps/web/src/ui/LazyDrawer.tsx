import type { DrawerProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { floatingParts } from './DeferredFloating.tsx';
import { useLoadedModule } from './lazyModule.ts';

const Drawer = lazy(() => import('./drawerPart.ts'));

/**
 * Mantine's Drawer in a chunk of its own, mounted once it is first opened or once the page's
 * floating parts have loaded after its first paint: a closed drawer (the phone layouts' chats
 * list and chat parameters) must not fetch a modal while the page shows its content.
 */
export function LazyDrawer(props: DrawerProps) {
  const afterPaint = useLoadedModule(floatingParts) !== null;
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!afterPaint && !wanted) return null;
  return (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  );
}
