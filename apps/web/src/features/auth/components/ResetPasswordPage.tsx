import { isEmailAddress, type PasswordPolicy } from '@assistente/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { isIdentityError } from '../../../lib/identity/errors.ts';
import { reportWarning } from '../../../lib/reporting.ts';
import { useFormFields } from '../../../ui/hooks/useFormFields.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { authErrorText } from '../authErrors.ts';
import { useGuessableCheck } from '../hooks/useGuessableCheck.ts';
import { emailFromState } from '../internal/emailState.ts';
import { meetsPolicy, passwordChecks } from '../passwordPolicy.ts';
import { authServices, signInWithPassword } from '../services.ts';
import { AuthHeading, AuthOutcome } from './AuthHeading.tsx';
import { PasswordChecklist } from './PasswordChecklist.tsx';

function BackToLogin() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <Anchor component={Link} to={lp('/auth/login')} size="sm" fw={500}>
      <IconArrowLeft size={14} style={{ verticalAlign: '-2px', marginRight: 4 }} />
      {t('pages_reset_password.back_to_login')}
    </Anchor>
  );
}

/** Without a code: asks for the email and always answers the same (no account enumeration). */
function RequestLink() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useFormFields(
    { email: emailFromState(location.state) },
    {
      email: (value) =>
        value.trim() === ''
          ? t('pages_login.validation.email_required')
          : isEmailAddress(value.trim())
            ? null
            : t('pages_login.validation.email_invalid'),
    },
  );

  const onSubmit = form.onSubmit(async ({ email }) => {
    setError(null);
    setSubmitting(true);
    try {
      await authServices().identity.sendPasswordResetEmail(email.trim(), i18n.language);
      setSent(email.trim());
    } catch (failure) {
      setError(authErrorText(t, failure));
    } finally {
      setSubmitting(false);
    }
  });

  if (sent) {
    return (
      <AuthOutcome
        testId="reset-sent"
        icon={<IconMailCheck size={30} />}
        color="primary"
        title={t('pages_reset_password.sent_title')}
        message={t('pages_reset_password.sent_message', { email: sent })}
      >
        <BackToLogin />
      </AuthOutcome>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading
        title={t('pages_reset_password.title')}
        subtitle={t('pages_reset_password.request_subtitle')}
      />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('pages_login.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            autoFocus
            size="md"
            {...form.field('email')}
          />
          {error ? (
            <Alert variant="light" color="error" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" size="md" fullWidth loading={submitting}>
            {t('pages_reset_password.send_link')}
          </Button>
        </Stack>
      </form>
      <Center>
        <BackToLogin />
      </Center>
    </Stack>
  );
}

type CodeState =
  | { kind: 'checking' }
  | { kind: 'valid'; email: string }
  | { kind: 'invalid'; message: string };

/**
 * With `?oobCode=`: checks the code, then sets a new password under the policy. An invitation's
 * link (`&invite=1`) words it as a first password and signs the newcomer in once it is set.
 */
function SetNewPassword({ oobCode, invite }: { oobCode: string; invite: boolean }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const [code, setCode] = useState<CodeState>({ kind: 'checking' });
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const { identity } = authServices();
    identity
      .verifyPasswordResetCode(oobCode)
      .then((email) => {
        if (!cancelled) setCode({ kind: 'valid', email });
      })
      .catch((failure: unknown) => {
        if (!cancelled) setCode({ kind: 'invalid', message: authErrorText(t, failure) });
      });
    identity
      .getPasswordPolicy()
      .then((value) => {
        if (!cancelled) setPolicy(value);
      })
      .catch((failure: unknown) => reportWarning('Could not load the password policy', 'identity', failure));
    return () => {
      cancelled = true;
    };
  }, [oobCode, t]);

  const isGuessable = useGuessableCheck(code.kind === 'valid' ? code.email : undefined);
  const checks = useMemo(
    () => passwordChecks(policy, password, isGuessable),
    [policy, password, isGuessable],
  );
  const mismatch = confirm !== '' && confirm !== password;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setError(null);
    if (!meetsPolicy(checks) || password !== confirm) return;
    setSubmitting(true);
    try {
      await authServices().identity.confirmPasswordReset(oobCode, password);
      const email = code.kind === 'valid' ? code.email : '';
      if (invite && email) {
        try {
          await signInWithPassword(email, password);
          navigate(lp('/'), { replace: true });
          return;
        } catch (failure) {
          // The password is set all the same: the login page is the way in.
          reportWarning('Could not sign the newcomer in after the invitation', 'auth', failure);
        }
      }
      setDone(email);
    } catch (failure) {
      if (
        isIdentityError(failure, 'auth/invalid-action-code') ||
        isIdentityError(failure, 'auth/expired-action-code')
      ) {
        setCode({ kind: 'invalid', message: authErrorText(t, failure) });
      } else {
        setError(authErrorText(t, failure));
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (code.kind === 'checking') {
    return (
      <Stack align="center" py="xl" gap="sm" role="status">
        <Loader />
        <Text c="dimmed">{t('pages_reset_password.checking')}</Text>
      </Stack>
    );
  }

  if (code.kind === 'invalid') {
    return (
      <Stack gap="md" data-testid="reset-invalid">
        <Title order={1} size="h3">
          {t('pages_reset_password.invalid_title')}
        </Title>
        <Alert variant="light" color="error" icon={<IconAlertCircle size={18} />} role="alert">
          {code.message}
        </Alert>
        <Button component={Link} to={lp('/auth/reset-password')} variant="filled" fullWidth>
          {t('pages_reset_password.request_new')}
        </Button>
        <Center>
          <BackToLogin />
        </Center>
      </Stack>
    );
  }

  if (done !== null) {
    return (
      <AuthOutcome
        testId="reset-done"
        icon={<IconCircleCheck size={30} />}
        color="green"
        title={t('pages_reset_password.done_title')}
        message={t('pages_reset_password.done_message')}
      >
        <Button component={Link} to={lp('/auth/login')} state={{ email: done }} fullWidth size="md">
          {t('pages_login.submit')}
        </Button>
      </AuthOutcome>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading
        title={t(invite ? 'pages_reset_password.invite_title' : 'pages_reset_password.new_title')}
        subtitle={t(invite ? 'pages_reset_password.invite_subtitle' : 'pages_reset_password.new_subtitle', {
          email: code.email,
        })}
      />
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <input type="email" name="username" autoComplete="username" value={code.email} readOnly hidden />
          <PasswordInput
            label={t(invite ? 'pages_reset_password.invite_password' : 'pages_reset_password.new_password')}
            autoComplete="new-password"
            autoFocus
            size="md"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={touched && !meetsPolicy(checks) ? t('pages_reset_password.policy.not_met') : undefined}
          />
          <PasswordChecklist checks={checks} />
          <PasswordInput
            label={t(
              invite
                ? 'pages_reset_password.invite_confirm_password'
                : 'pages_reset_password.confirm_password',
            )}
            autoComplete="new-password"
            size="md"
            value={confirm}
            onChange={(event) => setConfirm(event.currentTarget.value)}
            error={
              mismatch || (touched && confirm !== password) ? t('pages_reset_password.mismatch') : undefined
            }
          />
          {error ? (
            <Alert variant="light" color="error" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" size="md" fullWidth loading={submitting}>
            {t(invite ? 'pages_reset_password.invite_save' : 'pages_reset_password.save')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

/** /auth/reset-password: request a link, or (with `?oobCode=`) set a new password. */
export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const oobCode = searchParams.get('oobCode');
  return oobCode ? (
    <SetNewPassword key={oobCode} oobCode={oobCode} invite={searchParams.get('invite') === '1'} />
  ) : (
    <RequestLink />
  );
}
