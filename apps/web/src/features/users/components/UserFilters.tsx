import { type Role, Roles, type SortOrder, type UserSortField } from '@assistente/contracts';
import { Group, NativeSelect } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ListSearch } from '../../../ui/DataList.tsx';
import { DomainSelect } from '../../domains/index.ts';

export type StatusFilter = 'all' | 'active' | 'inactive';

export interface UserFilterValues {
  search: string;
  /** '' = every domain (SuperAdmin only). */
  domain: string;
  role: Role | '';
  status: StatusFilter;
  sort: UserSortField;
  order: SortOrder;
}

/** The sorts offered on phones (no column headers there), as `field_order` keys of `users.sort`. */
const SORTS: readonly { sort: UserSortField; order: SortOrder }[] = [
  { sort: 'displayName', order: 'asc' },
  { sort: 'displayName', order: 'desc' },
  { sort: 'email', order: 'asc' },
  { sort: 'role', order: 'desc' },
  { sort: 'createdAt', order: 'desc' },
  { sort: 'createdAt', order: 'asc' },
];
const sortKey = (s: { sort: UserSortField; order: SortOrder }) => `${s.sort}_${s.order}`;

/** Search, filters and (on phones, where there are no column headers) the sort. */
export function UserFilters({
  values,
  onChange,
  chooseDomain,
  mobile,
}: {
  values: UserFilterValues;
  onChange: (patch: Partial<UserFilterValues>) => void;
  chooseDomain: boolean;
  mobile: boolean;
}) {
  const { t } = useTranslation();
  const width = mobile ? '100%' : undefined;
  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <ListSearch
        value={values.search}
        onChange={(search) => onChange({ search })}
        placeholder={t('users.search_placeholder')}
        mobile={mobile}
      />
      {chooseDomain ? (
        <DomainSelect
          w={mobile ? width : 220}
          value={values.domain}
          onChange={(domain) => onChange({ domain })}
          allLabel={t('users.filters.all_domains')}
        />
      ) : null}
      <NativeSelect
        aria-label={t('users.fields.role')}
        w={mobile ? width : 170}
        value={values.role}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ role: Roles.find((r) => r === value) ?? '' });
        }}
        data={[
          { value: '', label: t('users.filters.all_roles') },
          ...Roles.map((role) => ({ value: role, label: t(`roles.${role}`) })),
        ]}
      />
      <NativeSelect
        aria-label={t('users.fields.status')}
        w={mobile ? width : 180}
        value={values.status}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ status: value === 'active' || value === 'inactive' ? value : 'all' });
        }}
        data={[
          { value: 'all', label: t('users.filters.all_statuses') },
          { value: 'active', label: t('common.active') },
          { value: 'inactive', label: t('common.inactive') },
        ]}
      />
      {mobile ? (
        <NativeSelect
          aria-label={t('common.sort_by')}
          w="100%"
          value={sortKey(values)}
          onChange={(event) => {
            const chosen = SORTS.find((s) => sortKey(s) === event.currentTarget.value);
            if (chosen) onChange({ sort: chosen.sort, order: chosen.order });
          }}
          data={SORTS.map((s) => ({ value: sortKey(s), label: t(`users.sort.${sortKey(s)}`) }))}
        />
      ) : null}
    </Group>
  );
}
