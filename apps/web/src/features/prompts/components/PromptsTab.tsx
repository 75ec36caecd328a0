import type { Prompt, PromptScope, User } from '@assistente/contracts';
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  NativeSelect,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEdit, IconHistory, IconLock, IconPlus, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { DataList, ListSearch, RowActions } from '../../../ui/DataList.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../../ui/hooks/useIsMobile.ts';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useAccountSession } from '../../auth/index.ts';
import { useDeletePrompt, usePromptList } from '../hooks/usePrompts.ts';
import { PROMPT_SCOPES } from '../internal/scopes.ts';
import { PromptFormDialog } from './PromptFormDialog.tsx';
import { PromptVersionsDialog } from './PromptVersionsDialog.tsx';
import { ScopeBadge } from './ScopeBadge.tsx';

type ScopeFilter = 'all' | PromptScope;
const FILTERS: readonly ScopeFilter[] = ['all', ...PROMPT_SCOPES];

/** `/settings` → Prompts: the person's library, with what their department and domain share. */
export function PromptsTab() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Library user={apiUser} /> : null;
}

function Library({ user }: { user: User }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [filter, setFilter] = useState<ScopeFilter>('all');
  const list = usePromptList({ q: q || undefined, scope: filter === 'all' ? undefined : filter });
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  // null: closed; 'new': a new prompt; a prompt: editing it.
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const [history, setHistory] = useState<Prompt | null>(null);
  const remove = useDeletePrompt();
  const confirm = useConfirm<Prompt>();
  const pending = confirm.target;

  const filterLabel = (value: ScopeFilter) => t(`prompts.filters.${value}`);
  const command = (prompt: Prompt) => <Code style={{ whiteSpace: 'nowrap' }}>/{prompt.command}</Code>;
  const version = (prompt: Prompt) => (
    <Badge variant="outline" color="neutral" radius="sm" size="sm" tt="none" data-testid="prompt-version">
      {t('prompts.version', { version: prompt.version })}
    </Badge>
  );
  const readOnly = (prompt: Prompt) =>
    prompt.editable ? null : (
      <Badge
        variant="transparent"
        color="neutral.6"
        size="sm"
        leftSection={<IconLock size={12} aria-hidden />}
        px={0}
        data-testid="prompt-read-only"
      >
        {t('prompts.read_only')}
      </Badge>
    );

  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" align="flex-start" gap="md" mb="md">
        <Stack gap={4} style={{ flex: '1 1 260px' }}>
          <Title order={2} size="h4">
            {t('prompts.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('prompts.description')}
          </Text>
        </Stack>
        <Button
          leftSection={<IconPlus size={18} />}
          onClick={() => setEditing('new')}
          data-testid="prompt-create"
        >
          {t('prompts.create')}
        </Button>
      </Group>
      <Group gap="sm" mb="md" align="center">
        <ListSearch
          value={search}
          onChange={setSearch}
          placeholder={t('prompts.search_placeholder')}
          mobile={mobile}
        />
        {mobile ? (
          <NativeSelect
            aria-label={t('prompts.filter_label')}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value as ScopeFilter)}
            data={FILTERS.map((value) => ({ value, label: filterLabel(value) }))}
            style={{ flex: '1 1 100%' }}
            data-testid="prompt-scope-filter"
          />
        ) : (
          <SegmentedControl
            aria-label={t('prompts.filter_label')}
            value={filter}
            onChange={(value) => setFilter(value as ScopeFilter)}
            data={FILTERS.map((value) => ({ value, label: filterLabel(value) }))}
            data-testid="prompt-scope-filter"
          />
        )}
      </Group>
      <DataList
        query={list}
        rows={rows}
        total={total}
        rowKey={(prompt) => prompt.id}
        columns={[
          {
            key: 'title',
            title: t('prompts.fields.title'),
            cell: (prompt) => (
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {prompt.title}
                </Text>
                {readOnly(prompt)}
              </Stack>
            ),
          },
          { key: 'command', title: t('prompts.fields.command'), cell: command },
          {
            key: 'scope',
            title: t('prompts.fields.scope'),
            cell: (prompt) => <ScopeBadge scope={prompt.scope} />,
          },
          {
            key: 'author',
            title: t('prompts.fields.author'),
            cell: (prompt) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {prompt.authorName}
              </Text>
            ),
          },
          { key: 'version', title: t('prompts.fields.version'), cell: version },
        ]}
        card={(prompt) => ({
          title: prompt.title,
          details: (
            <>
              <Group gap={6} mt={4}>
                {command(prompt)}
              </Group>
              <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
                {prompt.authorName}
              </Text>
            </>
          ),
          footer: (
            <>
              <ScopeBadge scope={prompt.scope} />
              {version(prompt)}
              {readOnly(prompt)}
            </>
          ),
        })}
        actions={(prompt) => (
          <RowActions
            label={t('prompts.actions_label', { title: prompt.title })}
            actions={[
              prompt.editable && {
                key: 'edit',
                label: t('prompts.edit'),
                icon: <IconEdit size={16} />,
                onClick: () => setEditing(prompt),
              },
              {
                key: 'versions',
                label: t('prompts.versions'),
                icon: <IconHistory size={16} />,
                onClick: () => setHistory(prompt),
              },
              prompt.editable && {
                key: 'delete',
                label: t('prompts.delete'),
                icon: <IconTrash size={16} />,
                danger: true,
                onClick: () => confirm.ask(prompt),
              },
            ]}
          />
        )}
        mobile={mobile}
        minWidth={720}
        testIds={{ table: 'prompts-table', cards: 'prompts-cards', row: 'prompt-row' }}
        loadFailedTitle={t('prompts.load_failed')}
        filtered={q !== '' || filter !== 'all'}
        noResults={{ title: t('prompts.no_results_title'), description: t('prompts.no_results_description') }}
        empty={{
          icon: <IconTemplate size={28} stroke={1.6} />,
          title: t('prompts.empty_title'),
          description: t('prompts.empty_description'),
          action: (
            <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('prompts.create')}
            </Button>
          ),
        }}
      />
      <PromptFormDialog
        opened={editing !== null}
        prompt={editing === 'new' ? null : editing}
        user={user}
        onClose={() => setEditing(null)}
        onSaved={(saved, created) => {
          setEditing(null);
          void popup.show({
            status: 'success',
            title: created
              ? t('prompts.created', { title: saved.title })
              : t('prompts.saved', { title: saved.title, version: saved.version }),
          });
        }}
      />
      <PromptVersionsDialog prompt={history} onClose={() => setHistory(null)} />
      <ConfirmDialog
        {...confirm.dialog(
          async (prompt) => {
            await remove.mutateAsync(prompt.id);
            void popup.show({ status: 'success', title: t('prompts.deleted', { title: prompt.title }) });
          },
          (error) => apiErrorText(t, error),
        )}
        title={t('prompts.confirm_delete.title')}
        message={pending ? t('prompts.confirm_delete.message', { title: pending.title }) : ''}
        confirmLabel={t('prompts.confirm_delete.confirm')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
      />
    </Card>
  );
}
