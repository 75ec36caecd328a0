import {
  type AuditAction,
  AuditActions,
  type AuditEntry,
  AuditFields,
  Roles,
  spansDomains,
  type User,
} from '@assistente/contracts';
import {
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconHistory, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { type TFunction as Translate, useTranslation } from '../../../lib/i18n/index.ts';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { DomainSelect } from '../../domains/index.ts';
import { useAuditLog } from '../hooks/useSettings.ts';

/** `user.sessions.revoke` → `audit.actions.user_sessions_revoke`. */
export const auditActionKey = (action: AuditAction) => `audit.actions.${action.replaceAll('.', '_')}`;

/** A `yyyy-mm-dd` of a date input as the start of that local day, in ISO form; `days` later for an end. */
export function dayStart(value: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * A recorded value in the reader's language: roles, a santito's visibility and yes/no translated,
 * lists of names one after another, the rest as stored.
 */
function show(t: Translate, field: string, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (field === 'role' && typeof value === 'string' && (Roles as readonly string[]).includes(value)) {
    return t(`roles.${value}`);
  }
  if (field === 'visibility' && (value === 'domain' || value === 'department')) {
    return t(`santitos.visibility.${value}`);
  }
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.length === 0 ? '—' : value.join(', ');
  }
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

/** The fields a change touched, named and valued in the reader's language: before → after. */
export function changedRows(
  t: Translate,
  entry: Pick<AuditEntry, 'before' | 'after'>,
): { field: string; label: string; before: string; after: string }[] {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return keys
    .map((field) => ({
      field,
      label: AuditFields.includes(field) ? t(`audit.fields.${field}`) : field,
      before: show(t, field, entry.before?.[field]),
      after: show(t, field, entry.after?.[field]),
    }))
    .filter((row) => row.before !== row.after);
}

/** What was changed, by name when the change carries one (a department's id means nothing to a reader). */
export function targetLabel(entry: Pick<AuditEntry, 'target' | 'before' | 'after'>): string {
  const name = entry.after?.displayName ?? entry.before?.displayName;
  return typeof name === 'string' && name !== '' && name !== entry.target.id ? name : entry.target.id;
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const rows = changedRows(t, entry);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="audit-row">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Group gap={6}>
            <Badge variant="light" radius="sm" tt="none">
              {t(auditActionKey(entry.action))}
            </Badge>
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} title={entry.target.id}>
              {targetLabel(entry)}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('audit.by', { actor: entry.actor.email })}
            {entry.ip ? ` · ${t('audit.ip', { ip: entry.ip })}` : ''}
            {entry.domain ? ` · ${entry.domain}` : ''}
          </Text>
        </Stack>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.at, i18n.language)}
        </Text>
      </Group>
      {rows.length > 0 ? (
        <>
          <UnstyledButton
            mt={6}
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            fz="xs"
            c="primary.7"
            fw={600}
            style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
          >
            {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            {t('audit.changes', { count: rows.length })}
          </UnstyledButton>
          <Collapse expanded={open}>
            <Table.ScrollContainer type="native" minWidth={320} mt="xs">
              <Table fz="xs" withTableBorder withColumnBorders>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('audit.field')}</Table.Th>
                    <Table.Th>{t('audit.before')}</Table.Th>
                    <Table.Th>{t('audit.after')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.field}>
                      <Table.Td>{row.label}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.before}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.after}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Collapse>
        </>
      ) : null}
    </Card>
  );
}

/** The audit log (Admin: own domain; SuperAdmin: every domain or one): filterable, paged. */
export function AuditTab({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const superAdmin = spansDomains(caller);
  const [action, setAction] = useState<AuditAction | ''>('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [domain, setDomain] = useState('');
  const [debouncedActor] = useDebouncedValue(actor.trim().toLowerCase(), 300);
  const range = { from: dayStart(from), to: dayStart(to, 1) };
  const log = useAuditLog({
    ...(action ? { action } : {}),
    ...(debouncedActor ? { actor: debouncedActor } : {}),
    ...(range.from ? { from: range.from } : {}),
    ...(range.to ? { to: range.to } : {}),
    domain: superAdmin ? domain || null : caller.domain,
  });
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? [], [log.data]);
  const total = log.data?.pages[0]?.total ?? 0;

  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap={4} mb="md">
        <Title order={2} size="h4">
          {t('audit.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(superAdmin ? 'audit.description_all' : 'audit.description')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: superAdmin ? 5 : 4 }} spacing="sm" mb="md">
        <NativeSelect
          label={t('audit.filters.action')}
          value={action}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setAction(AuditActions.find((a) => a === value) ?? '');
          }}
          data={[
            { value: '', label: t('audit.filters.all_actions') },
            ...AuditActions.map((a) => ({ value: a, label: t(auditActionKey(a)) })),
          ]}
        />
        <TextInput
          label={t('audit.filters.actor')}
          placeholder={t('audit.filters.actor_placeholder')}
          leftSection={<IconSearch size={14} />}
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('audit.filters.from')}
          value={from}
          max={to || undefined}
          onChange={(event) => setFrom(event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('audit.filters.to')}
          value={to}
          min={from || undefined}
          onChange={(event) => setTo(event.currentTarget.value)}
        />
        {superAdmin ? (
          <DomainSelect
            label={t('users.fields.domain')}
            value={domain}
            onChange={setDomain}
            allLabel={t('users.filters.all_domains')}
          />
        ) : null}
      </SimpleGrid>

      {log.isPending ? (
        <ListSkeleton rows={4} height={60} label={t('app.loading')} />
      ) : log.isError ? (
        <LoadError title={t('audit.load_failed')} query={log} />
      ) : entries.length === 0 ? (
        <EmptyPanel
          icon={<IconHistory size={28} stroke={1.6} />}
          title={t('audit.empty_title')}
          description={t('audit.empty_description')}
        />
      ) : (
        <Stack gap="sm" data-testid="audit-log">
          {entries.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
          <Group justify="space-between" gap="sm" mt="xs">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('common.showing', { shown: entries.length, total })}
            </Text>
            {log.hasNextPage ? (
              <Button
                variant="light"
                onClick={() => void log.fetchNextPage()}
                loading={log.isFetchingNextPage}
              >
                {t('common.load_more')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}
    </Card>
  );
}
