import { type PiiKind, PiiKinds, type PiiMode, type PiiSettings } from '@assistente/contracts';
import { Button, Checkbox, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { usePiiSettings, useUpdatePiiSettings } from '../hooks/usePiiSettings.ts';

const MODES: readonly PiiMode[] = ['off', 'redact', 'block'];

/**
 * Settings → Domain (Admins): the PII and credential filter (docs/ARCHITECTURE.md#pii-filter) —
 * what it does when it finds something (nothing, replace it, refuse the message) and what it looks for.
 */
export function PiiSetting({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const settings = usePiiSettings(domain);
  return (
    <Stack gap="sm" data-testid="pii-setting">
      <Stack gap={4}>
        <Title order={3} size="h5">
          {t('pii.settings.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('pii.settings.description')}
        </Text>
      </Stack>
      {settings.isPending ? (
        <ListSkeleton rows={2} label={t('app.loading')} />
      ) : settings.isError ? (
        <LoadError title={t('pii.settings.load_failed')} query={settings} />
      ) : (
        <PiiForm key={domain} domain={domain} saved={settings.data} />
      )}
    </Stack>
  );
}

function PiiForm({ domain, saved }: { domain: string; saved: PiiSettings }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const update = useUpdatePiiSettings();
  const [mode, setMode] = useState<PiiMode>(saved.mode);
  const [kinds, setKinds] = useState<PiiKind[]>(saved.kinds);
  const changed =
    mode !== saved.mode || kinds.length !== saved.kinds.length || kinds.some((k) => !saved.kinds.includes(k));

  const save = async () => {
    try {
      await update.mutateAsync({ domain, body: { mode, kinds: PiiKinds.filter((k) => kinds.includes(k)) } });
      void popup.show({ status: 'success', title: t('pii.settings.saved') });
    } catch (error) {
      void popup.show({
        status: 'error',
        title: t('pii.settings.failed'),
        description: apiErrorText(t, error),
      });
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      noValidate
    >
      <Stack gap="md">
        <Radio.Group
          label={t('pii.settings.mode')}
          value={mode}
          onChange={(value) => setMode(value as PiiMode)}
        >
          <Stack gap="sm" mt="xs">
            {MODES.map((m) => (
              <Radio
                key={m}
                value={m}
                label={t(`pii.settings.modes.${m}`)}
                description={t(`pii.settings.mode_hints.${m}`)}
                data-testid={`pii-mode-${m}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox.Group
          label={t('pii.settings.kinds')}
          description={t('pii.settings.kinds_hint')}
          value={kinds}
          onChange={(value) => setKinds(value as PiiKind[])}
          error={kinds.length === 0 ? t('pii.settings.kinds_required') : undefined}
        >
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {PiiKinds.map((k) => (
              <Checkbox key={k} value={k} label={t(`pii.kinds.${k}`)} data-testid={`pii-kind-${k}`} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group>
          <Button
            type="submit"
            disabled={!changed || kinds.length === 0}
            loading={update.isPending}
            data-testid="pii-save"
          >
            {t('pii.settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
