import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { openExternalUrl } from '../../../lib/navigation.ts';
import { useLocalePrefix } from '../../../ui/hooks/useLocalePath.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { editorTarget, type HandoffQuery } from '../handoffQuery.ts';
import { authServices } from '../services.ts';

export type HandoffStatus = 'idle' | 'confirm' | 'refused' | 'running' | 'opened' | 'failed';

/**
 * The editor handoff on a login page that asks for it, once the user is authenticated (already
 * signed in, or right after signing in here). It runs from the user's click only: a browser opens
 * `vscode://` from a gesture alone, and a browser-hosted editor's callback needs their consent.
 * A callback the operator did not allow never runs. A failure shows the error popup.
 */
export function useEditorHandoff(query: HandoffQuery | null, authenticated: boolean) {
  const { t } = useTranslation();
  const { show } = usePopup();
  const prefix = useLocalePrefix();
  const [status, setStatus] = useState<HandoffStatus>('idle');
  const started = useRef(false);
  const target = useMemo(
    () => (query ? editorTarget(query.callback, authServices().config.editorCallbackOrigins) : null),
    [query],
  );

  const run = useCallback(async () => {
    if (!query || !target || target.kind === 'refused') return;
    setStatus('running');
    const { auth, codeAssistHttp, config } = authServices();
    try {
      // Only editor sign-ins need this code; it loads when one starts.
      const { loginRedirectUri, runEditorHandoff } = await import('../handoff.ts');
      const result = await runEditorHandoff(query, loginRedirectUri(window.location.origin, prefix), {
        currentUser: () => auth.currentUser,
        getIdToken: () => auth.getIdToken(),
        submit: async (payload) =>
          (
            await codeAssistHttp.POST('/api/v1/user_management/login_submit', {
              body: payload,
              credentials: 'include',
              as: null,
            })
          ).data,
        deepLink: () => (target.kind === 'callback' ? target.url : config.editorDeepLink),
        open: openExternalUrl,
      });
      setStatus(result === 'opened' ? 'opened' : 'idle');
    } catch (error) {
      setStatus('failed');
      void show({
        status: 'error',
        title: t('pages_login.redirect_vscode.error_message.title'),
        description: t('pages_login.redirect_vscode.error_message.description'),
        details: errorMessage(error, t('http.fallback_error')),
        retry: () => void run(),
      });
    }
  }, [query, target, prefix, t, show]);

  useEffect(() => {
    if (!query || !target || !authenticated || started.current) return;
    started.current = true;
    setStatus(target.kind === 'refused' ? 'refused' : 'confirm');
    // Loaded while the question is shown: the click should reach the editor within its gesture.
    if (target.kind !== 'refused') void import('../handoff.ts');
  }, [query, target, authenticated]);

  return { status, run, target };
}
