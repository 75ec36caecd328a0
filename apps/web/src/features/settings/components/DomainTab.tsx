import { DomainSettingsUpdateSchema, spansDomains, type User } from '@assistente/contracts';
import { Alert, Button, Card, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { DomainSelect } from '../../domains/index.ts';
import { PiiSetting } from '../../pii/index.ts';
import { PublicLinksSetting } from '../../shares/index.ts';
import { useDomainSettings, useUpdateDomainSettings } from '../hooks/useSettings.ts';
import { DomainTimeZone } from './DomainTimeZone.tsx';

const ISSUE_KEYS = { eulaVersion: 'validation.eula_version' };

/**
 * Domain settings (Admin+): the EULA version (a new one asks every user of the domain to accept
 * again) and the zone the domain's days are counted in.
 */
export function DomainTab({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const superAdmin = spansDomains(caller);
  const [domain, setDomain] = useState(caller.domain);
  const settings = useDomainSettings(domain);
  const update = useUpdateDomainSettings();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { eulaVersion: '' },
    validate: (values) => {
      const errors = schemaErrors(DomainSettingsUpdateSchema, values, t, ISSUE_KEYS);
      if (!errors.eulaVersion && values.eulaVersion.trim() === settings.data?.eulaVersion)
        errors.eulaVersion = t('settings.domain.same_version');
      return errors;
    },
  });

  const submit = form.onSubmit((values) => {
    const parsed = validateWith(DomainSettingsUpdateSchema, values, t, ISSUE_KEYS);
    if (!parsed.ok) return;
    setError(null);
    setConfirming(parsed.data.eulaVersion ?? null);
  });

  const bump = async () => {
    if (!confirming) return;
    try {
      const saved = await update.mutateAsync({ domain, body: { eulaVersion: confirming } });
      setConfirming(null);
      form.reset();
      void popup.show({
        status: 'success',
        title: t('settings.domain.bumped', { version: saved.eulaVersion }),
        description: t('settings.domain.bumped_hint'),
      });
    } catch (failure) {
      setError(apiErrorText(t, failure));
    }
  };

  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap="md" maw={560}>
        <Stack gap={4}>
          <Title order={2} size="h4">
            {t('settings.domain.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.domain.description')}
          </Text>
        </Stack>
        {superAdmin ? (
          <DomainSelect
            label={t('users.fields.domain')}
            value={domain}
            onChange={(next) => next && setDomain(next)}
          />
        ) : null}
        {settings.isPending ? (
          <ListSkeleton rows={1} label={t('app.loading')} />
        ) : settings.isError ? (
          <LoadError title={t('settings.errors.load_failed')} query={settings} />
        ) : (
          <>
            <Text>
              {t('settings.domain.current_version')}:{' '}
              <Text span fw={700} data-testid="eula-version">
                {settings.data.eulaVersion}
              </Text>
            </Text>
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <TextInput
                  label={t('settings.domain.new_version')}
                  description={t('settings.domain.new_version_hint')}
                  placeholder="v2"
                  {...form.getInputProps('eulaVersion')}
                />
                <Alert variant="light" color="accent" icon={<IconInfoCircle size={18} />}>
                  {t('settings.domain.warning')}
                </Alert>
                <Group>
                  <Button type="submit">{t('settings.domain.bump')}</Button>
                </Group>
              </Stack>
            </form>
            <Divider />
            <DomainTimeZone key={settings.data.domain} settings={settings.data} />
            <Divider />
            <PublicLinksSetting domain={settings.data.domain} />
            <Divider />
            <PiiSetting domain={settings.data.domain} />
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        title={t('settings.domain.confirm_title')}
        message={t('settings.domain.confirm_message', { version: confirming ?? '', domain })}
        confirmLabel={t('settings.domain.bump')}
        cancelLabel={t('common.cancel')}
        danger={false}
        loading={update.isPending}
        error={error}
        onConfirm={() => void bump()}
        onClose={() => setConfirming(null)}
      />
    </Card>
  );
}
