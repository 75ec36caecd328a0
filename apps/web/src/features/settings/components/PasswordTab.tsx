import { Alert, Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { IdentityError } from '../../../lib/identity/errors.ts';
import { useStoreValue } from '../../../ui/hooks/useStoreValue.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import {
  accountSession,
  authErrorText,
  meetsPolicy,
  PasswordChecklist,
  passwordChecks,
  useGuessableCheck,
} from '../../auth/index.ts';
import { useChangePassword, usePasswordPolicy } from '../hooks/useSettings.ts';

const WRONG_CURRENT: readonly string[] = ['auth/invalid-credential', 'auth/wrong-password'];

/**
 * Changes the password: the current one first (re-authentication), then the new one with the
 * identity provider's policy as a live checklist. Other sessions end; this one carries on.
 */
export function PasswordTab() {
  const { t } = useTranslation();
  const popup = usePopup();
  const policy = usePasswordPolicy();
  const isGuessable = useGuessableCheck(useStoreValue(accountSession, (session) => session.apiUser?.email));
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { current: '', next: '', confirm: '' },
    validate: {
      current: (value) => (value === '' ? t('settings.password.current_required') : null),
      next: (value) =>
        meetsPolicy(passwordChecks(policy.data ?? null, value, isGuessable))
          ? null
          : t('pages_reset_password.policy.not_met'),
      confirm: (value, values) => (value === values.next ? null : t('pages_reset_password.mismatch')),
    },
  });
  const checks = passwordChecks(policy.data ?? null, form.values.next, isGuessable);

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await change.mutateAsync({ current: values.current, next: values.next });
      form.reset();
      void popup.show({
        status: 'success',
        title: t('settings.password.changed_title'),
        description: t('settings.password.changed'),
      });
    } catch (error) {
      if (error instanceof IdentityError && WRONG_CURRENT.includes(error.code)) {
        form.setFieldError('current', t('settings.password.wrong_current'));
      } else if (
        error instanceof IdentityError &&
        error.code === 'auth/password-does-not-meet-requirements'
      ) {
        form.setFieldError('next', authErrorText(t, error));
      } else {
        setFailure(authErrorText(t, error));
      }
    }
  });

  return (
    <Card withBorder radius="lg" padding="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md" maw={520}>
          <Stack gap={4}>
            <Title order={2} size="h4">
              {t('settings.password.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('settings.password.description')}
            </Text>
          </Stack>
          <PasswordInput
            label={t('settings.password.current')}
            autoComplete="current-password"
            required
            {...form.getInputProps('current')}
          />
          <PasswordInput
            label={t('pages_reset_password.new_password')}
            autoComplete="new-password"
            required
            {...form.getInputProps('next')}
          />
          <PasswordChecklist checks={checks} />
          <PasswordInput
            label={t('pages_reset_password.confirm_password')}
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          {failure ? (
            <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
              {failure}
            </Alert>
          ) : null}
          <div>
            <Button type="submit" loading={change.isPending}>
              {t('settings.password.submit')}
            </Button>
          </div>
        </Stack>
      </form>
    </Card>
  );
}
