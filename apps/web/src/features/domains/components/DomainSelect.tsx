import { Select } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useDomainOptions } from '../hooks/useDomains.ts';

/** A SuperAdmin's choice of domain; `allLabel` adds an "every domain" choice (value ''). */
export function DomainSelect({
  value,
  onChange,
  allLabel,
  w,
  label,
}: {
  value: string;
  onChange: (domain: string) => void;
  allLabel?: string;
  w?: number | string;
  label?: string;
}) {
  const { t } = useTranslation();
  const domains = useDomainOptions();
  const data = (domains.data ?? []).map((d) => ({ value: d._id, label: d.displayName || d._id }));
  // The current value stays labelled while the options load.
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: value });
  return (
    <Select
      label={label}
      aria-label={label ? undefined : t('users.fields.domain')}
      w={w}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('common.nothing_found')}
      value={value}
      onChange={(next) => onChange(next ?? '')}
      data={allLabel ? [{ value: '', label: allLabel }, ...data] : data}
    />
  );
}
