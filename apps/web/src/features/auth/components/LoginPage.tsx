import { isEmailAddress, isSsoErrorCode, type SsoLoginOption } from '@assistente/contracts';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconCode, IconKey } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { reportWarning } from '../../../lib/reporting.ts';
import { BrandIcon } from '../../../ui/BrandIcon.tsx';
import { useFormFields } from '../../../ui/hooks/useFormFields.ts';
import { useLocalePath, useLocalePrefix } from '../../../ui/hooks/useLocalePath.ts';
import { useStoreValue } from '../../../ui/hooks/useStoreValue.ts';
import { PasswordField } from '../../../ui/PasswordField.tsx';
import { signOutReason } from '../accessLost.ts';
import { authErrorText } from '../authErrors.ts';
import { readHandoffQuery } from '../handoffQuery.ts';
import { emailFromState } from '../internal/emailState.ts';
import classes from './LoginPage.module.css';

// Only editor sign-ins need it: it loads when an authenticated user is on a handoff login page.
const EditorHandoff = lazy(() => import('./EditorHandoff.tsx'));

import { authServices, signInWithPassword, signInWithSso } from '../services.ts';
import { accountSession, isAuthenticated } from '../session.ts';
import { AuthHeading } from './AuthHeading.tsx';

/** The one-time code a single sign-on callback left in the fragment (`#ssoCode=…&providerId=…`). */
function readSsoFragment(hash: string): { code: string; providerId: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('ssoCode');
  const providerId = params.get('providerId');
  return code && providerId ? { code, providerId } : null;
}

/** A path of this app to come back to (the server checks again); anything else is dropped. */
function localRedirect(value: string | null): string | null {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;
}

/** The providers the login page offers; none (or a failure to ask) shows no buttons. */
function useSsoProviders(): SsoLoginOption[] {
  const [providers, setProviders] = useState<SsoLoginOption[]>([]);
  useEffect(() => {
    let live = true;
    authServices()
      .identity.listSsoProviders()
      .then((list) => {
        if (live) setProviders(list);
      })
      .catch((error: unknown) => reportWarning('Could not list the sign-in providers', 'identity', error));
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** "Entrar com Google" or "Entrar com {name}": a full-page navigation to the provider. */
function SsoButtons({ providers, redirect }: { providers: SsoLoginOption[]; redirect: string | null }) {
  const { t } = useTranslation();
  const prefix = useLocalePrefix();
  const base = authServices().config.identity.baseUrl.replace(/\/+$/, '');
  return (
    <Stack gap="xs" data-testid="sso-providers">
      {providers.map((p) => {
        const query = new URLSearchParams({
          ...(redirect ? { redirect } : {}),
          ...(prefix ? { locale: prefix } : {}),
        }).toString();
        return (
          <Button
            key={p.id}
            component="a"
            href={`${base}/sso/${encodeURIComponent(p.id)}/start${query ? `?${query}` : ''}`}
            variant="default"
            fullWidth
            size="md"
            leftSection={p.kind === 'google' ? <BrandIcon name="google" /> : <IconKey size={18} />}
          >
            {p.kind === 'google'
              ? t('pages_login.google')
              : t('pages_login.sso_with', { name: p.displayName })}
          </Button>
        );
      })}
    </Stack>
  );
}

/** /auth/login: email and password sign-in, and the editor handoff (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension). */
export default function LoginPage() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const handoffQuery = useMemo(() => readHandoffQuery(searchParams), [searchParams]);
  const authenticated = useStoreValue(accountSession, isAuthenticated);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Why this tab was signed out on its own (deactivated, session ended elsewhere).
  const signedOutReason = useStoreValue(signOutReason, (s) => s.reason);
  const providers = useSsoProviders();
  const navigate = useNavigate();
  const redirect = localRedirect(searchParams.get('redirect'));
  const ssoError = searchParams.get('ssoError');
  // Read once: the fragment is dropped from the address at once, so a reload cannot replay the code.
  const ssoHandoff = useRef(readSsoFragment(location.hash));
  const [finishingSso, setFinishingSso] = useState(ssoHandoff.current !== null);

  useEffect(() => {
    const handoff = ssoHandoff.current;
    if (!handoff) return;
    ssoHandoff.current = null;
    navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
    signInWithSso(handoff.code, handoff.providerId).catch((failure: unknown) => {
      setError(authErrorText(t, failure));
      setFinishingSso(false);
    });
  }, [navigate, location.pathname, location.search, t]);

  const form = useFormFields(
    { email: emailFromState(location.state), password: '' },
    {
      email: (value) =>
        value.trim() === ''
          ? t('pages_login.validation.email_required')
          : isEmailAddress(value.trim())
            ? null
            : t('pages_login.validation.email_invalid'),
      password: (value) => (value === '' ? t('pages_login.validation.password_required') : null),
    },
  );

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    signOutReason.setState({ reason: null });
    setSubmitting(true);
    try {
      await signInWithPassword(values.email, values.password);
      // The login guard (or the handoff) takes over from here; stay busy until then.
      if (handoffQuery) setSubmitting(false);
    } catch (failure) {
      setError(authErrorText(t, failure));
      setSubmitting(false);
    }
  });

  if (handoffQuery && authenticated) {
    return (
      <Suspense fallback={null}>
        <EditorHandoff query={handoffQuery} />
      </Suspense>
    );
  }

  if (finishingSso) {
    return (
      <Stack align="center" gap="md" py="xl" data-testid="sso-finishing">
        <Loader size="md" />
        <Text c="dimmed">{t('pages_login.sso_finishing')}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading title={t('pages_login.title')} subtitle={t('pages_login.subtitle')} />

      {signedOutReason ? (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlertCircle size={18} />}
          data-testid="signed-out-reason"
        >
          {t(`pages_login.signed_out.${signedOutReason}`)}
        </Alert>
      ) : null}

      {handoffQuery ? (
        <Alert variant="light" color="primary" icon={<IconCode size={18} />} data-testid="handoff-intro">
          {t('pages_login.redirect_vscode.intro')}
        </Alert>
      ) : null}

      {isSsoErrorCode(ssoError) ? (
        <Alert
          variant="light"
          color="error"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          data-testid="sso-error"
        >
          {t(`pages_login.sso_errors.${ssoError}`)}
        </Alert>
      ) : null}

      {providers.length > 0 ? (
        <>
          <SsoButtons providers={providers} redirect={redirect} />
          <div className={classes.divider}>{t('pages_login.or')}</div>
        </>
      ) : null}

      {/* A server error is about the last attempt: editing a field or trying again clears it, so it
          never stands beside new field errors. */}
      <form
        onSubmit={(event) => {
          setError(null);
          onSubmit(event);
        }}
        onChange={() => setError(null)}
        noValidate
      >
        <Stack gap="md">
          <TextInput
            label={t('pages_login.email')}
            type="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            size="md"
            {...form.field('email')}
          />
          <Stack gap={6}>
            <PasswordField
              label={t('pages_login.password')}
              autoComplete="current-password"
              size="md"
              {...form.field('password')}
            />
            <Group justify="flex-end">
              <Anchor
                component={Link}
                to={lp('/auth/reset-password')}
                state={{ email: form.values.email.trim() }}
                size="sm"
                fw={500}
              >
                {t('pages_login.forgot_password')}
              </Anchor>
            </Group>
          </Stack>
          {error ? (
            <Alert
              variant="light"
              color="error"
              icon={<IconAlertCircle size={18} />}
              role="alert"
              data-testid="login-error"
            >
              {error}
            </Alert>
          ) : null}
          <Button type="submit" size="md" fullWidth loading={submitting}>
            {t('pages_login.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
