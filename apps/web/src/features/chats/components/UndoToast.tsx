import { Button, CloseButton, Group, Paper, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useStoreValue } from '../../../ui/hooks/useStoreValue.ts';
import { useRestoreChat } from '../hooks/useChatsList.ts';
import { clearUndo, undoStore } from '../lib/undo.ts';
import classes from './UndoToast.module.css';

/** How long the undo offer stays (the server keeps a deleted chat restorable for 30 s). */
const UNDO_VISIBLE_MS = 10_000;

/** "Chat deleted — Undo", after a delete from the list. */
export function UndoToast() {
  const { t } = useTranslation();
  const undo = useStoreValue(undoStore, (s) => s);
  const restore = useRestoreChat();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new delete (new key) restarts the timer
  useEffect(() => {
    if (!undo.chatId) return;
    const timer = setTimeout(clearUndo, UNDO_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [undo.chatId, undo.key]);

  if (!undo.chatId) return null;
  const chatId = undo.chatId;
  return (
    <Paper className={classes.toast} shadow="lg" radius="md" p="xs" pl="md" role="status" aria-live="polite">
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" lineClamp={2} className={classes.text}>
          {t('chats.list.deleted', { title: undo.title || t('chats.untitled') })}
        </Text>
        <Button
          size="xs"
          variant="subtle"
          className={classes.action}
          loading={restore.isPending}
          onClick={() => restore.mutate(chatId, { onSettled: clearUndo })}
        >
          {t('chats.list.undo')}
        </Button>
        <CloseButton size="sm" className={classes.action} aria-label={t('popup.close')} onClick={clearUndo} />
      </Group>
    </Paper>
  );
}
