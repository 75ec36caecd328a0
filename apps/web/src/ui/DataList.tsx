import type { SortOrder } from '@assistente/contracts';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots, IconSearch, IconSearchOff } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/index.ts';
import { Menu } from './DeferredFloating.tsx';
import { EmptyPanel } from './EmptyPanel.tsx';
import { ListSkeleton, LoadError } from './LoadState.tsx';
import { SortHeader } from './SortHeader.tsx';

// The admin lists (users, domains, departments): a search box, a sortable table from the md
// breakpoint up and cards below it, loading / failed / empty / no-results states, "showing n of
// total" and "load more", and a menu of actions per row.

/** The search box above a list; it fills the row on a phone. */
export function ListSearch({
  value,
  onChange,
  placeholder,
  mobile,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  mobile: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="search"
      placeholder={placeholder}
      aria-label={t('common.search')}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      style={{ flex: mobile ? '1 1 100%' : '1 1 260px' }}
    />
  );
}

export interface RowAction {
  key: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** Destructive: shown last, in red, after a divider. */
  danger?: boolean;
}

/** The "…" menu of one row; `null` entries are actions the caller may not take. */
export function RowActions({
  label,
  width = 210,
  actions,
}: {
  /** The button's accessible name, e.g. "Actions for Ana". */
  label: string;
  width?: number;
  actions: ReadonlyArray<RowAction | null | false>;
}) {
  const shown = actions.filter((action): action is RowAction => Boolean(action));
  if (shown.length === 0) return null;
  return (
    <Menu position="bottom-end" shadow="md" width={width} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="neutral.7" size="lg" aria-label={label}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {shown.map((action) => (
          <Fragment key={action.key}>
            {action.danger ? <Menu.Divider /> : null}
            <Menu.Item
              color={action.danger ? 'error' : undefined}
              leftSection={action.icon}
              onClick={action.onClick}
            >
              {action.label}
            </Menu.Item>
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export interface DataListColumn<T> {
  key: string;
  title: string;
  /** A sortable column: whether the list is sorted by it, in which order, and what a click does. */
  sort?: { active: boolean; order: SortOrder; onSort: () => void };
  cell: (row: T) => ReactNode;
}

/** A row as a card on a phone: its title, lines under it, and a line of badges. */
export interface DataListCard {
  title: ReactNode;
  details?: ReactNode;
  footer?: ReactNode;
}

/** What the list needs from an infinite TanStack query. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
  isFetchingNextPage: boolean;
}

export interface DataListProps<T> {
  query: PagedQuery;
  rows: readonly T[];
  total: number;
  rowKey: (row: T) => string;
  columns: ReadonlyArray<DataListColumn<T>>;
  card: (row: T) => DataListCard;
  actions: (row: T) => ReactNode;
  mobile: boolean;
  testIds: { table: string; cards: string; row: string; count?: string };
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  loadFailedTitle: string;
  /** No rows because of the search or filters ("no results"), or none at all ("empty"). */
  filtered: boolean;
  noResults: { title: string; description: string };
  empty: { icon: ReactNode; title: string; description: string; action?: ReactNode };
}

export function DataList<T>(props: DataListProps<T>) {
  const { query, rows, total, mobile, testIds } = props;
  const { t } = useTranslation();

  if (query.isPending) return <ListSkeleton label={t('app.loading')} />;
  if (query.isError) return <LoadError title={props.loadFailedTitle} query={query} />;
  if (rows.length === 0)
    return props.filtered ? (
      <EmptyPanel
        icon={<IconSearchOff size={28} stroke={1.6} />}
        title={props.noResults.title}
        description={props.noResults.description}
      />
    ) : (
      <EmptyPanel icon={props.empty.icon} title={props.empty.title} description={props.empty.description}>
        {props.empty.action}
      </EmptyPanel>
    );

  return (
    <Stack gap="md">
      {mobile ? <Cards {...props} /> : <RowsTable {...props} />}
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" data-testid={testIds.count} aria-live="polite">
          {t('common.showing', { shown: rows.length, total })}
        </Text>
        {query.hasNextPage ? (
          <Button
            variant="light"
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
          >
            {t('common.load_more')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

function Cards<T>({ rows, rowKey, card, actions, testIds }: DataListProps<T>) {
  return (
    <Stack gap="sm" data-testid={testIds.cards}>
      {rows.map((row) => {
        const { title, details, footer } = card(row);
        return (
          <Card key={rowKey(row)} withBorder radius="lg" padding="md" data-testid={testIds.row}>
            {/* Above a line of badges the menu stays by the title; on a two-line card it is centred. */}
            <Group justify="space-between" align={footer ? 'flex-start' : 'center'} wrap="nowrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {title}
                </Text>
                {details}
              </Stack>
              {actions(row)}
            </Group>
            {footer ? (
              <Group gap={6} mt="sm">
                {footer}
              </Group>
            ) : null}
          </Card>
        );
      })}
    </Stack>
  );
}

function RowsTable<T>({ rows, rowKey, columns, actions, testIds, minWidth }: DataListProps<T>) {
  const { t } = useTranslation();
  const table = (
    <Table verticalSpacing="sm" highlightOnHover data-testid={testIds.table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) =>
            column.sort ? (
              <SortHeader key={column.key} {...column.sort}>
                {column.title}
              </SortHeader>
            ) : (
              <Table.Th key={column.key}>{column.title}</Table.Th>
            ),
          )}
          <Table.Th w={56}>
            <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} data-testid={testIds.row}>
            {columns.map((column) => (
              <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
            ))}
            <Table.Td>{actions(row)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? (
    <Table.ScrollContainer type="native" minWidth={minWidth}>
      {table}
    </Table.ScrollContainer>
  ) : (
    table
  );
}
