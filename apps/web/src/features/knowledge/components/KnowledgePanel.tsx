import {
  type ConfluenceTestResult,
  type KnowledgeDocument,
  type KnowledgeSource,
  KnowledgeUploadTypes,
} from '@assistente/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Collapse,
  Group,
  Modal,
  PasswordInput,
  Progress,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IconBook2,
  IconCheck,
  IconChevronDown,
  IconChevronRight,
  IconFileUpload,
  IconPlugConnected,
  IconPlus,
  IconRefresh,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import {
  knowledgeApi,
  useCreateSource,
  useDeleteDocument,
  useDeleteSource,
  useKnowledgeDocuments,
  useKnowledgeSources,
  useSyncSource,
  useUploaded,
} from '../hooks/useKnowledge.ts';
import { useKnowledgeEvents } from '../hooks/useKnowledgeEvents.ts';
import { knowledgeFailureText } from '../lib/failures.ts';
import { uploadDocument } from '../upload.ts';

const ACCEPT = [...KnowledgeUploadTypes, '.md', '.markdown', '.html', '.htm', '.txt', '.pdf', '.docx'].join(
  ',',
);

function StatusBadge({ status }: { status: KnowledgeSource['status'] | KnowledgeDocument['status'] }) {
  const { t } = useTranslation();
  const color =
    status === 'error' ? 'error' : status === 'ready' || status === 'idle' ? 'secondary' : 'primary';
  return (
    <Badge variant="light" color={color} size="sm">
      {t(`knowledge.status.${status}`)}
    </Badge>
  );
}

interface UploadItem {
  key: string;
  name: string;
  progress: number;
  error?: string;
}

/** Drag-and-drop (or pick) files into a files source, each with its upload progress. */
function Uploader({ sourceId }: { sourceId: string }) {
  const { t } = useTranslation();
  const uploaded = useUploaded();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<UploadItem[]>([]);
  const [over, setOver] = useState(false);
  const set = (key: string, patch: Partial<UploadItem>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const start = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${Math.random()}`;
      setItems((all) => [...all, { key, name: file.name, progress: 0 }]);
      void uploadDocument(sourceId, file, (p) => set(key, { progress: p }))
        .then(() => {
          uploaded(sourceId);
          setItems((all) => all.filter((i) => i.key !== key));
        })
        .catch((err: unknown) => set(key, { error: errorMessage(err, t('knowledge.upload.failed')) }));
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length > 0) start(event.dataTransfer.files);
  };

  return (
    <Stack gap={6}>
      <button
        type="button"
        data-testid="knowledge-dropzone"
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{
          border: `2px dashed var(--mantine-color-${over ? 'primary-5' : 'neutral-3'})`,
          borderRadius: 8,
          padding: 16,
          background: over ? 'var(--mantine-color-primary-0)' : 'transparent',
          cursor: 'pointer',
          width: '100%',
          color: 'inherit',
          font: 'inherit',
        }}
      >
        <Group gap="xs" justify="center" wrap="nowrap">
          <IconFileUpload size={20} aria-hidden />
          <Text size="sm">{t('knowledge.upload.drop')}</Text>
        </Group>
        <Text size="xs" c="dimmed" ta="center">
          {t('knowledge.upload.types')}
        </Text>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ACCEPT}
        aria-label={t('knowledge.upload.pick')}
        onChange={(e) => {
          if (e.target.files) start(e.target.files);
          e.target.value = '';
        }}
      />
      {items.map((i) => (
        <Stack key={i.key} gap={2}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" truncate>
              {i.name}
            </Text>
            {i.error ? (
              <ActionIcon
                size="xs"
                variant="subtle"
                aria-label={t('knowledge.upload.dismiss')}
                onClick={() => setItems((all) => all.filter((x) => x.key !== i.key))}
              >
                <IconX size={12} />
              </ActionIcon>
            ) : null}
          </Group>
          {i.error ? (
            <Text size="xs" c="error.7" role="alert">
              {i.error}
            </Text>
          ) : (
            <Progress
              value={Math.round(i.progress * 100)}
              size="sm"
              aria-label={t('knowledge.upload.progress', { name: i.name })}
            />
          )}
        </Stack>
      ))}
    </Stack>
  );
}

/** Documents shown at first, and added by each "show more": a space of thousands stays quick to open. */
const DOCUMENTS_SHOWN = 200;

function Documents({ source }: { source: KnowledgeSource }) {
  const { t } = useTranslation();
  const docs = useKnowledgeDocuments(source.sourceId, true);
  const remove = useDeleteDocument();
  const confirm = useConfirm<KnowledgeDocument>();
  const [shown, setShown] = useState(DOCUMENTS_SHOWN);
  if (docs.isPending) return <Text size="sm">{t('knowledge.loading')}</Text>;
  if (docs.isError)
    return (
      <Text size="sm" c="error.7">
        {errorMessage(docs.error, t('knowledge.load_failed'))}
      </Text>
    );
  if (docs.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('knowledge.documents.empty')}
      </Text>
    );
  const left = docs.data.length - shown;
  return (
    <Stack gap={4} data-testid="knowledge-documents">
      {docs.data.slice(0, shown).map((d) => (
        <Group key={d.documentId} justify="space-between" wrap="nowrap" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" truncate>
              {d.title}
            </Text>
            {d.error ? (
              <Text size="xs" c="error.7">
                {knowledgeFailureText(t, d.errorReason, d.error)}
              </Text>
            ) : (
              <Text size="xs" c="dimmed">
                {t('knowledge.documents.chunks', { count: d.chunks })}
              </Text>
            )}
          </Stack>
          <Group gap={4} wrap="nowrap">
            <StatusBadge status={d.status} />
            {source.kind === 'files' ? (
              <IconAction
                label={t('knowledge.documents.delete')}
                icon={<IconTrash size={14} />}
                danger
                loading={remove.isPending && remove.variables?.documentId === d.documentId}
                onClick={() => confirm.ask(d)}
              />
            ) : null}
          </Group>
        </Group>
      ))}
      {left > 0 ? (
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setShown((n) => n + DOCUMENTS_SHOWN)}
        >
          {t('knowledge.documents.more', { count: left })}
        </Button>
      ) : null}
      <ConfirmDialog
        {...confirm.dialog(
          (d) => remove.mutateAsync({ id: source.sourceId, documentId: d.documentId }),
          (err) => errorMessage(err, t('knowledge.delete_failed')),
        )}
        title={t('knowledge.documents.delete')}
        message={t('knowledge.documents.delete_message', { name: confirm.target?.title ?? '' })}
        confirmLabel={t('knowledge.delete')}
        cancelLabel={t('knowledge.cancel')}
        loading={remove.isPending}
      />
    </Stack>
  );
}

/** A line of progress under a source: what is happening, and a bar of done out of total. */
function ProgressLine(props: { label: string; done: number; total: number; testId?: string }) {
  return (
    <Stack gap={2} data-testid={props.testId}>
      <Text size="xs">{props.label}</Text>
      <Progress value={props.total ? Math.round((100 * props.done) / props.total) : 0} size="sm" animated />
    </Stack>
  );
}

export function SourceCard({ source, onDelete }: { source: KnowledgeSource; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  const sync = useSyncSource();
  const [open, setOpen] = useState(false);
  const syncing = source.status === 'syncing';
  // Uploads still being read: the source is not "ready" with whatever it has counted so far.
  const indexing = source.status === 'idle' ? (source.indexing ?? 0) : 0;
  return (
    <ItemCard
      testId="knowledge-source"
      title={source.displayName}
      badges={
        <>
          <Badge variant="outline" size="sm">
            {t(`knowledge.kinds.${source.kind}`)}
          </Badge>
          <StatusBadge status={indexing > 0 ? 'indexing' : source.status} />
        </>
      }
      actions={
        <>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={sync.isPending}
            disabled={syncing}
            onClick={() => sync.mutate(source.sourceId)}
          >
            {t('knowledge.sync_now')}
          </Button>
          <IconAction
            label={t('knowledge.delete')}
            icon={<IconTrash size={16} />}
            onClick={onDelete}
            danger
          />
        </>
      }
      details={
        <>
          {`${t('knowledge.documents_count', { count: source.documents })} · ${t('knowledge.chunks_count', { count: source.chunks })}`}
          {source.lastSyncAt
            ? ` · ${t('knowledge.last_sync', { at: new Date(source.lastSyncAt).toLocaleString(i18n.language) })}`
            : ''}
          {source.confluence
            ? ` · ${source.confluence.baseUrl} · ${source.confluence.spaces.join(', ')}`
            : ''}
        </>
      }
    >
      {syncing && source.progress ? (
        <ProgressLine
          label={t('knowledge.progress', {
            done: String(source.progress.done),
            total: String(source.progress.total),
          })}
          done={source.progress.done}
          total={source.progress.total}
        />
      ) : syncing && source.kind === 'confluence' ? (
        // Claimed, its pages not yet counted: no total to show yet.
        <Text size="xs">{t('knowledge.counting')}</Text>
      ) : indexing > 0 ? (
        <ProgressLine
          label={t('knowledge.indexing', { count: indexing })}
          done={source.documents - indexing}
          total={source.documents}
          testId="knowledge-indexing"
        />
      ) : null}
      {source.error ? (
        <Alert color="error" variant="light" icon={<IconX size={16} />} role="alert" py={6}>
          {t('knowledge.sync_failed', {
            // The sentence goes on after the reason: its own full stop would double.
            error: knowledgeFailureText(t, source.errorReason, source.error).replace(/\.$/, ''),
          })}
        </Alert>
      ) : null}
      {sync.isError ? (
        <Text size="sm" c="error.7" role="alert">
          {errorMessage(sync.error, t('knowledge.sync_failed_generic'))}
        </Text>
      ) : null}
      {source.kind === 'files' ? <Uploader sourceId={source.sourceId} /> : null}
      <Button
        variant="subtle"
        size="xs"
        px={4}
        leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        onClick={() => setOpen((o) => !o)}
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
      >
        {t('knowledge.documents.title')}
      </Button>
      <Collapse expanded={open}>{open ? <Documents source={source} /> : null}</Collapse>
    </ItemCard>
  );
}

function ConfluenceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSource();
  const [displayName, setDisplayName] = useState('Confluence');
  const [baseUrl, setBaseUrl] = useState('');
  const [email, setEmail] = useState('');
  const [apiToken, setApiToken] = useState('');
  const [spaces, setSpaces] = useState<string[]>([]);
  const [test, setTest] = useState<ConfluenceTestResult | null>(null);
  const [testing, setTesting] = useState(false);
  const [testError, setTestError] = useState<string | null>(null);
  const settings = { baseUrl: baseUrl.trim(), email: email.trim(), apiToken: apiToken.trim(), spaces };
  const complete = Boolean(settings.baseUrl && settings.email && settings.apiToken && spaces.length > 0);

  const runTest = async () => {
    setTesting(true);
    setTestError(null);
    try {
      setTest(await knowledgeApi().testConnection(settings));
    } catch (err) {
      setTest(null);
      setTestError(errorMessage(err, t('knowledge.confluence.test_failed')));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledge.confluence.title')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { kind: 'confluence', displayName: displayName.trim(), confluence: settings },
            { onSuccess: onClose },
          );
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('knowledge.display_name')}
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('knowledge.confluence.base_url')}
            description={t('knowledge.confluence.base_url_hint')}
            placeholder="https://acme.atlassian.net"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('knowledge.confluence.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label={t('knowledge.confluence.api_token')}
            value={apiToken}
            onChange={(e) => setApiToken(e.currentTarget.value)}
            required
          />
          <TagsInput
            label={t('knowledge.confluence.spaces')}
            description={t('knowledge.confluence.spaces_hint')}
            value={spaces}
            onChange={(v) => setSpaces(v.map((s) => s.trim()).filter(Boolean))}
            splitChars={[',', ' ']}
          />
          {test ? (
            test.ok ? (
              <Alert color="secondary" variant="light" icon={<IconCheck size={16} />} role="status" py={6}>
                <Stack gap={2}>
                  {test.spaces.map((s) => (
                    <Text size="sm" key={s.key}>
                      {t('knowledge.confluence.space_pages', {
                        key: s.key,
                        name: s.name,
                        count: s.pages,
                      })}
                    </Text>
                  ))}
                  {test.missing.length > 0 ? (
                    <Text size="sm" c="error.7">
                      {t('knowledge.confluence.missing', { keys: test.missing.join(', ') })}
                    </Text>
                  ) : null}
                </Stack>
              </Alert>
            ) : (
              <Alert color="error" variant="light" icon={<IconX size={16} />} role="alert" py={6}>
                {knowledgeFailureText(t, test.reason, test.message ?? t('knowledge.confluence.test_failed'))}
              </Alert>
            )
          ) : null}
          {testError ? (
            <Text size="sm" c="error.7" role="alert">
              {testError}
            </Text>
          ) : null}
          {create.isError ? (
            <Text size="sm" c="error.7" role="alert">
              {errorMessage(create.error, t('knowledge.save_failed'))}
            </Text>
          ) : null}
          <Group justify="space-between" wrap="wrap">
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              loading={testing}
              disabled={!complete}
              onClick={() => void runTest()}
            >
              {t('knowledge.confluence.test')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('knowledge.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} disabled={!complete || !displayName.trim()}>
                {t('knowledge.confluence.connect')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function FilesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSource();
  const [displayName, setDisplayName] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledge.files.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ kind: 'files', displayName: displayName.trim() }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('knowledge.display_name')}
            placeholder={t('knowledge.files.placeholder')}
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            required
            data-autofocus
          />
          {create.isError ? (
            <Text size="sm" c="error.7" role="alert">
              {errorMessage(create.error, t('knowledge.save_failed'))}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('knowledge.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!displayName.trim()}>
              {t('knowledge.files.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The "Knowledge" tab of /integration: Confluence sites and uploaded documents for santitos. */
export function KnowledgePanel() {
  const { t } = useTranslation();
  // Syncs and indexing show as they happen, pushed by the server.
  useKnowledgeEvents();
  const sources = useKnowledgeSources();
  const remove = useDeleteSource();
  const confirm = useConfirm<KnowledgeSource>();
  const [dialog, setDialog] = useState<'confluence' | 'files' | null>(null);
  return (
    <Stack gap="lg">
      <SettingsSection
        description={t('knowledge.intro')}
        actions={
          <>
            <Button leftSection={<IconPlus size={16} />} variant="default" onClick={() => setDialog('files')}>
              {t('knowledge.files.add')}
            </Button>
            <Button leftSection={<IconPlugConnected size={16} />} onClick={() => setDialog('confluence')}>
              {t('knowledge.confluence.add')}
            </Button>
          </>
        }
        query={sources}
        empty={
          <EmptyPanel
            icon={<IconBook2 size={28} stroke={1.6} />}
            title={t('knowledge.empty_title')}
            description={t('knowledge.empty_description')}
          />
        }
      >
        {(items) => (
          <Stack gap="md">
            {items.map((s) => (
              <SourceCard key={s.sourceId} source={s} onDelete={() => confirm.ask(s)} />
            ))}
          </Stack>
        )}
      </SettingsSection>
      {dialog === 'confluence' ? <ConfluenceDialog opened onClose={() => setDialog(null)} /> : null}
      {dialog === 'files' ? <FilesDialog opened onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        {...confirm.dialog(
          (s) => remove.mutateAsync(s.sourceId),
          (err) => errorMessage(err, t('knowledge.delete_failed')),
        )}
        title={t('knowledge.delete_title')}
        message={t('knowledge.delete_message', { name: confirm.target?.displayName ?? '' })}
        confirmLabel={t('knowledge.delete')}
        cancelLabel={t('knowledge.cancel')}
        loading={remove.isPending}
      />
    </Stack>
  );
}
