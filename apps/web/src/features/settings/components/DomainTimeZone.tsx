import type { DomainSettings } from '@assistente/contracts';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useUpdateDomainSettings } from '../hooks/useSettings.ts';

/** Every zone this browser knows, the domain's own first if the browser lacks it. */
function zones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** The zone of the domain's days: when its budgets' days, weeks and months begin and reports' days. */
export function DomainTimeZone({ settings }: { settings: DomainSettings }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const update = useUpdateDomainSettings();
  const [zone, setZone] = useState(settings.timeZone);
  const [error, setError] = useState<string | null>(null);
  const options = useMemo(() => zones(settings.timeZone), [settings.timeZone]);

  const save = async () => {
    setError(null);
    try {
      const saved = await update.mutateAsync({ domain: settings.domain, body: { timeZone: zone } });
      void popup.show({
        status: 'success',
        title: t('settings.domain.zone_saved', { zone: saved.timeZone }),
      });
    } catch (failure) {
      setError(apiErrorText(t, failure));
    }
  };

  return (
    <Stack gap="sm">
      <Select
        label={t('settings.domain.zone')}
        description={t('settings.domain.zone_hint')}
        data={options}
        value={zone}
        onChange={(next) => next && setZone(next)}
        searchable
        allowDeselect={false}
        nothingFoundMessage={t('settings.domain.zone_none')}
        error={error}
      />
      <Group>
        <Button
          variant="light"
          onClick={() => void save()}
          loading={update.isPending}
          disabled={zone === settings.timeZone}
        >
          {t('settings.domain.zone_save')}
        </Button>
        {zone !== settings.timeZone ? (
          <Text size="sm" c="dimmed">
            {t('settings.domain.zone_current', { zone: settings.timeZone })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
