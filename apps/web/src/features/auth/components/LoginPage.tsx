import { isEmailAddress } from '@assistente/contracts';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconCode } from '@tabler/icons-react';
import { lazy, type MouseEvent, type ReactNode, Suspense, useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { BrandIcon } from '../../../ui/BrandIcon.tsx';
import { HintTooltip } from '../../../ui/HintTooltip.tsx';
import { useFormFields } from '../../../ui/hooks/useFormFields.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { useStoreValue } from '../../../ui/hooks/useStoreValue.ts';
import { PasswordField } from '../../../ui/PasswordField.tsx';
import { signOutReason } from '../accessLost.ts';
import { authErrorText } from '../authErrors.ts';
import { readHandoffQuery } from '../handoffQuery.ts';
import classes from './LoginPage.module.css';

// Only editor sign-ins need it: it loads when an authenticated user is on a handoff login page.
const EditorHandoff = lazy(() => import('./EditorHandoff.tsx'));

import { signInWithPassword } from '../services.ts';
import { accountSession, isAuthenticated } from '../session.ts';

function emailFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'email' in state) {
    const email = (state as { email: unknown }).email;
    if (typeof email === 'string') return email;
  }
  return '';
}

/** A provider whose sign-in is not offered here: visible, disabled, explained on hover. */
function UnavailableProvider({ icon, label, hint }: { icon: ReactNode; label: string; hint: string }) {
  return (
    <HintTooltip label={hint}>
      {(describedBy) => (
        <Button
          variant="default"
          fullWidth
          leftSection={icon}
          data-disabled
          aria-disabled="true"
          aria-describedby={describedBy}
          onClick={(event: MouseEvent) => event.preventDefault()}
        >
          {label}
        </Button>
      )}
    </HintTooltip>
  );
}

/** /auth/login: email and password sign-in, and the editor handoff (spec §2). */
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

  const unavailable = t('pages_login.provider_unavailable');
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} size="h2">
          {t('pages_login.title')}
        </Title>
        <Text c="dimmed">{t('pages_login.subtitle')}</Text>
      </Stack>

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

      <Stack gap="xs">
        <UnavailableProvider
          icon={<BrandIcon name="google" />}
          label={t('pages_login.google')}
          hint={unavailable}
        />
        <UnavailableProvider
          icon={<BrandIcon name="confluence" />}
          label={t('pages_login.confluence')}
          hint={unavailable}
        />
      </Stack>

      <div className={classes.divider}>{t('pages_login.or')}</div>

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
              <Anchor component={Link} to={lp('/auth/reset-password')} size="sm" fw={500}>
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
