import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { signOut, useAccountSession } from '../../auth/index.ts';
import { useEulaStatus } from '../hooks/useEulaStatus.ts';

// Most sessions never show it: the dialog (a modal, the terms) is fetched only when it must show.
const EulaDialog = lazy(() => import('./EulaDialog.tsx').then((module) => ({ default: module.EulaDialog })));

/** Shows the EULA dialog over the signed-in app while the user's acceptance is pending. */
export function EulaGate() {
  const { apiUser } = useAccountSession();
  const pending = apiUser?.eula.pendingRevision === true;
  const status = useEulaStatus(pending);
  const navigate = useNavigate();
  const lp = useLocalePath();
  if (!apiUser || !pending) return null;
  return (
    <Suspense fallback={null}>
      <EulaDialog
        user={apiUser}
        {...(status.data ? { version: status.data.currentVersion } : {})}
        onSignOut={() => {
          void signOut().finally(() => navigate(lp('/auth/login'), { replace: true }));
        }}
      />
    </Suspense>
  );
}
