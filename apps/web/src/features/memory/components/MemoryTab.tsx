import { isAdmin, type Memory, MemoryLimits, type User } from '@assistente/contracts';
import { Alert, Badge, Button, Card, Group, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { IconBrain, IconDownload, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { saveBlob } from '../../../lib/http/authorizedRequest.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import {
  useAddMemory,
  useDeleteMemory,
  useMemories,
  useSetMemoryEnabled,
  useUpdateMemory,
} from '../hooks/useMemories.ts';

/** A failed save in the reader's words: the limit of memories has its own. */
function useFailureText() {
  const { t } = useTranslation();
  return (failure: unknown) =>
    apiErrorCode(failure) === 'CONFLICT'
      ? t('memory.full', { max: String(MemoryLimits.perPerson) })
      : apiErrorText(t, failure);
}

/**
 * Settings → Memory: what the person asked the assistant to remember, newest first, and for an
 * Admin the domain's switch (docs/ARCHITECTURE.md#memory).
 */
export function MemoryTab({ user }: { user: Pick<User, 'role'> }) {
  const { t } = useTranslation();
  const memories = useMemories();
  const admin = isAdmin(user);

  if (memories.isPending) return <ListSkeleton rows={3} height={64} label={t('app.loading')} />;
  if (memories.isError) return <LoadError title={t('common.load_failed')} query={memories} />;
  const { enabled, injected } = memories.data;
  const list = memories.data.memories;

  return (
    <Stack gap="lg" data-testid="memory-tab">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t('memory.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('memory.description')}
        </Text>
      </Stack>
      {admin ? <DomainSwitch enabled={enabled} /> : null}
      {enabled ? (
        <>
          <AddMemory />
          {list.length > 0 ? (
            <Text size="sm" data-testid="memory-injected">
              {t('memory.injected', { injected: String(injected), count: list.length })}{' '}
              <Text span size="sm" c="dimmed">
                {t('memory.injected_note')}
              </Text>
            </Text>
          ) : null}
        </>
      ) : (
        <Alert color="accent" variant="light" title={t('memory.off.title')} data-testid="memory-off">
          <Text size="sm">{t('memory.off.description')}</Text>
          {admin ? null : (
            <Text size="sm" mt={4}>
              {t('memory.off.ask_admin')}
            </Text>
          )}
          {list.length > 0 ? (
            <Text size="sm" mt={4}>
              {t('memory.off.kept')}
            </Text>
          ) : null}
        </Alert>
      )}
      {list.length > 0 ? (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconDownload size={16} />}
            onClick={() => downloadMemories(list)}
          >
            {t('memory.download')}
          </Button>
        </Group>
      ) : null}
      {list.length > 0 ? (
        <Stack gap="sm" data-testid="memory-list">
          {list.map((memory, i) => (
            <MemoryRow key={memory.id} memory={memory} leftOut={enabled && i >= injected} />
          ))}
        </Stack>
      ) : enabled ? (
        <EmptyPanel
          icon={<IconBrain size={28} />}
          title={t('memory.empty.title')}
          description={t('memory.empty.description')}
        />
      ) : null}
    </Stack>
  );
}

/** The person's memories as a JSON file of their own, to keep or take elsewhere. */
function downloadMemories(memories: readonly Memory[]) {
  const file = { version: 1, exportedAt: new Date().toISOString(), memories };
  saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), 'memories.json');
}

/** An Admin turns memory on or off for their whole domain, here where its effect shows. */
function DomainSwitch({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const failure = useFailureText();
  const set = useSetMemoryEnabled();
  const [error, setError] = useState<string | null>(null);
  return (
    <Card withBorder radius="lg" padding="md">
      <Switch
        checked={enabled}
        disabled={set.isPending}
        label={t('memory.switch.label')}
        description={t('memory.switch.description')}
        data-testid="memory-switch"
        onChange={async (event) => {
          const on = event.currentTarget.checked;
          setError(null);
          try {
            await set.mutateAsync(on);
            void popup.show({
              status: 'success',
              title: t(on ? 'memory.switch.turned_on' : 'memory.switch.turned_off'),
            });
          } catch (err) {
            setError(failure(err));
          }
        }}
      />
      {error ? (
        <Text size="sm" c="error" mt="xs" role="alert">
          {error}
        </Text>
      ) : null}
    </Card>
  );
}

/** A memory written here: one short sentence. */
function AddMemory() {
  const { t } = useTranslation();
  const popup = usePopup();
  const failure = useFailureText();
  const add = useAddMemory();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    setError(null);
    try {
      await add.mutateAsync(value);
      setText('');
      void popup.show({ status: 'success', title: t('memory.add.added') });
    } catch (err) {
      setError(failure(err));
    }
  };
  return (
    <form onSubmit={submit} data-testid="memory-add">
      <Stack gap="xs">
        <Textarea
          label={t('memory.add.label')}
          placeholder={t('memory.add.placeholder')}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={MemoryLimits.textMax}
          value={text}
          error={error}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            leftSection={<IconPlus size={16} />}
            loading={add.isPending}
            disabled={!text.trim()}
          >
            {t('memory.add.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One memory: its text, who saved it and when; edited in place, deleted after a confirmation. */
function MemoryRow({ memory, leftOut }: { memory: Memory; leftOut: boolean }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const failure = useFailureText();
  const update = useUpdateMemory();
  const remove = useDeleteMemory();
  const [draft, setDraft] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const text = draft?.trim();
    if (!text) return;
    setError(null);
    try {
      if (text !== memory.text) await update.mutateAsync({ id: memory.id, text });
      setDraft(null);
      void popup.show({ status: 'success', title: t('memory.updated') });
    } catch (err) {
      setError(failure(err));
    }
  };
  const del = async () => {
    setError(null);
    try {
      await remove.mutateAsync(memory.id);
      setConfirming(false);
      void popup.show({ status: 'success', title: t('memory.deleted') });
    } catch (err) {
      setError(failure(err));
    }
  };

  return (
    <Card withBorder radius="md" padding="sm" data-testid="memory-row" data-source={memory.source}>
      {draft !== null ? (
        <form onSubmit={save}>
          <Stack gap="xs">
            <Textarea
              aria-label={t('memory.edit_label')}
              autosize
              minRows={1}
              maxRows={6}
              maxLength={MemoryLimits.textMax}
              autoFocus
              value={draft}
              error={error}
              onChange={(event) => setDraft(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setDraft(null);
              }}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => setDraft(null)}>
                {t('memory.cancel')}
              </Button>
              <Button type="submit" size="xs" loading={update.isPending} disabled={!draft.trim()}>
                {t('memory.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {memory.text}
            </Text>
            <Group gap={6}>
              <Text size="xs" c="dimmed" data-testid="memory-source">
                {t(`memory.source.${memory.source}`)} · {formatDateTime(memory.createdAt, i18n.language)}
              </Text>
              {leftOut ? (
                <Badge size="xs" variant="outline" color="neutral.6" radius="sm" tt="none">
                  {t('memory.left_out')}
                </Badge>
              ) : null}
            </Group>
          </Stack>
          <Group gap={2} wrap="nowrap">
            <IconAction
              label={t('memory.edit')}
              icon={<IconPencil size={16} />}
              onClick={() => {
                setError(null);
                setDraft(memory.text);
              }}
            />
            <IconAction
              label={t('memory.delete')}
              icon={<IconTrash size={16} />}
              danger
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            />
          </Group>
        </Group>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t('memory.delete_confirm.title')}
        message={t('memory.delete_confirm.message', { text: memory.text })}
        confirmLabel={t('memory.delete')}
        cancelLabel={t('memory.cancel')}
        loading={remove.isPending}
        error={confirming ? error : null}
        onConfirm={() => void del()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
