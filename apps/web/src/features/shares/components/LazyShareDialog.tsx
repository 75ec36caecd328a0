import { lazy, Suspense, useState } from 'react';
import type { ShareDialogProps } from './ShareDialog.tsx';

const ShareDialog = lazy(() =>
  import('./ShareDialog.tsx').then((module) => ({ default: module.ShareDialog })),
);

/**
 * The share dialog, fetched when it is first opened and kept mounted after (its closing
 * transition, its focus return): the chats' first load carries no modal, which the dialog's
 * options need only once it opens anyway.
 */
export function LazyShareDialog(props: ShareDialogProps) {
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ShareDialog {...props} />
    </Suspense>
  );
}
