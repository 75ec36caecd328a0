import { useCallback, useEffect, useRef, useState } from 'react';
import { usePopup } from '../../../app/popup/usePopup.ts';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { openExternalUrl } from '../../../lib/navigation.ts';
import { useLocalePrefix } from '../../../ui/hooks/useLocalePath.ts';
import type { HandoffQuery } from '../handoffQuery.ts';
import { authServices } from '../services.ts';

export type HandoffStatus = 'idle' | 'running' | 'opened' | 'failed';

/**
 * Runs the editor handoff once the user is authenticated on a login page that asks for it
 * (already signed in, or right after signing in here). A failure shows the error popup.
 */
export function useEditorHandoff(query: HandoffQuery | null, authenticated: boolean) {
  const { t } = useTranslation();
  const { show } = usePopup();
  const prefix = useLocalePrefix();
  const [status, setStatus] = useState<HandoffStatus>('idle');
  const started = useRef(false);

  const run = useCallback(async () => {
    if (!query) return;
    setStatus('running');
    const { auth, codeAssistHttp, config } = authServices();
    try {
      // Only editor sign-ins need this code; it loads when one starts.
      const { LOGIN_SUBMIT_PATH, loginRedirectUri, runEditorHandoff } = await import('../handoff.ts');
      const result = await runEditorHandoff(query, loginRedirectUri(window.location.origin, prefix), {
        currentUser: () => auth.currentUser,
        getIdToken: () => auth.getIdToken(),
        submit: (payload) =>
          codeAssistHttp.post(LOGIN_SUBMIT_PATH, {
            body: payload,
            credentials: 'include',
            userParams: false,
          }),
        deepLink: () => config.editorDeepLink,
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
  }, [query, prefix, t, show]);

  useEffect(() => {
    if (!query || !authenticated || started.current) return;
    started.current = true;
    void run();
  }, [query, authenticated, run]);

  return { status, run };
}
