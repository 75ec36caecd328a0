import { KnowledgeUploadTypes } from '@assistente/contracts';
import { ActionIcon, Group, Progress, Stack, Text } from '@mantine/core';
import { IconFileUpload, IconX } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useUploaded } from '../hooks/useKnowledge.ts';
import { uploadDocument } from '../upload.ts';

const ACCEPT = [...KnowledgeUploadTypes, '.md', '.markdown', '.html', '.htm', '.txt', '.pdf', '.docx'].join(
  ',',
);

interface UploadItem {
  key: string;
  name: string;
  progress: number;
  error?: string;
}

/** Drag-and-drop (or pick) files into a files source, each with its upload progress. */
export function DocumentUploader({ sourceId }: { sourceId: string }) {
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
