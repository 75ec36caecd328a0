import { Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A column header that sorts by its field: click for ascending, again for descending. */
export function SortHeader({
  children,
  active,
  order,
  onSort,
}: {
  children: ReactNode;
  active: boolean;
  order: 'asc' | 'desc';
  onSort: () => void;
}) {
  const Icon = !active ? IconSelector : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={onSort}
        fw={600}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
      >
        {children}
        <Icon size={14} stroke={1.8} opacity={active ? 1 : 0.5} />
      </UnstyledButton>
    </Table.Th>
  );
}
