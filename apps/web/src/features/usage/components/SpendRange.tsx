import { Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { type DayRange, presetRange, RANGE_PRESETS, type RangePreset } from '../lib/spend.ts';

export interface RangeChoice {
  preset: RangePreset;
  range: DayRange;
}

/** The report's days: a preset, or two dates of the reader's choice (from, to, both included). */
export function SpendRange({
  value,
  onChange,
  mobile,
}: {
  value: RangeChoice;
  onChange: (value: RangeChoice) => void;
  mobile: boolean;
}) {
  const { t } = useTranslation();
  const width = mobile ? '100%' : 180;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('usage.spend.range')}
        data={RANGE_PRESETS.map((preset) => ({ value: preset, label: t(`usage.spend.presets.${preset}`) }))}
        value={value.preset}
        allowDeselect={false}
        w={width}
        onChange={(next) => {
          if (!next) return;
          const preset = next as RangePreset;
          // A custom range starts from the days on screen, which the reader then adjusts.
          onChange({ preset, range: preset === 'custom' ? value.range : presetRange(preset) });
        }}
        data-testid="usage-range"
      />
      {value.preset === 'custom' ? (
        <>
          <TextInput
            type="date"
            label={t('usage.spend.from')}
            value={value.range.from}
            w={mobile ? 'calc(50% - 6px)' : 170}
            onChange={(event) =>
              onChange({ preset: 'custom', range: { ...value.range, from: event.currentTarget.value } })
            }
            data-testid="usage-from"
          />
          <TextInput
            type="date"
            label={t('usage.spend.to')}
            value={value.range.to}
            w={mobile ? 'calc(50% - 6px)' : 170}
            onChange={(event) =>
              onChange({ preset: 'custom', range: { ...value.range, to: event.currentTarget.value } })
            }
            data-testid="usage-to"
          />
        </>
      ) : null}
    </Group>
  );
}
