import { Button, Stack, Text } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import classes from './ImportDropZone.module.css';

/** Where an export is dropped, or chosen with a button: one .zip or .json file. */
export function ImportDropZone({ onFile }: { onFile: (file: File) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // Entering and leaving the zone's children counts, so the hint does not flicker.
  const depth = useRef(0);
  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

  return (
    <Stack
      align="center"
      gap="xs"
      className={classes.zone}
      data-over={over || undefined}
      data-testid="chat-import-drop"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (hasFiles(e)) e.preventDefault();
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <IconFileZip size={36} stroke={1.4} aria-hidden />
      <Text fw={500} ta="center">
        {t('chatImport.drop.title')}
      </Text>
      <Text size="sm" c="dimmed" ta="center">
        {t('chatImport.drop.hint')}
      </Text>
      <Button variant="light" onClick={() => input.current?.click()} data-testid="chat-import-choose">
        {t('chatImport.drop.choose')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept=".zip,.json,application/zip,application/json"
        data-testid="chat-import-input"
        aria-label={t('chatImport.drop.choose')}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          // Cleared, so choosing the same file again (after fixing it) imports it again.
          e.currentTarget.value = '';
          if (file) onFile(file);
        }}
      />
    </Stack>
  );
}
