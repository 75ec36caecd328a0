import type { Attachment } from '@assistente/contracts';
import { Group } from '@mantine/core';
import { IconFile, IconFileOff } from '@tabler/icons-react';
import { createContext, useContext } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatSize } from '../../../ui/format.ts';
import { downloadFile, useFetchedImage } from '../../auth/index.ts';
import { attachmentsPath } from '../api.ts';
import { hasThumbnail } from '../lib/thumbnails.ts';
import classes from './AttachmentChips.module.css';

/** Where a chat's attachment is downloaded from (behind the bearer token). */
export const attachmentPath = (a: Attachment) =>
  `${attachmentsPath(a.chatId)}/${encodeURIComponent(a.attachmentId)}`;

/**
 * Where the files on screen are read from: the chat's own address, or (a shared chat, read by
 * someone else) the address its answer gave, which goes through the link.
 */
export const FilePathContext = createContext<(a: Attachment) => string>(attachmentPath);

/** A file retention deleted: its name stays, said to be gone; nothing to download. */
function RemovedChip({ attachment: a }: { attachment: Attachment }) {
  const { t } = useTranslation();
  const removed = t('retention.server.file_removed');
  return (
    <span
      className={`${classes.attachment} ${classes.attachmentRemoved}`}
      title={removed}
      data-testid="attachment-removed"
    >
      <IconFileOff size={15} stroke={1.6} aria-hidden />
      <span className={classes.attachmentName}>{a.name}</span>
      <span className={classes.attachmentSize}>{removed}</span>
    </span>
  );
}

/** A file of the chat as a chip, its name and size (a thumbnail for an image): a click downloads it. */
export function AttachmentChip({ attachment }: { attachment: Attachment }) {
  return attachment.removedAt ? (
    <RemovedChip attachment={attachment} />
  ) : (
    <StoredChip attachment={attachment} />
  );
}

function StoredChip({ attachment: a }: { attachment: Attachment }) {
  const { t, i18n } = useTranslation();
  const path = useContext(FilePathContext)(a);
  const thumbnail = useFetchedImage(hasThumbnail(a.contentType) ? path : null, 'chats');
  return (
    <button
      type="button"
      className={classes.attachment}
      title={t('chats.attachments.download', { name: a.name })}
      onClick={() => void downloadFile(path, a.name).catch(() => undefined)}
      data-testid="attachment"
    >
      {thumbnail ? (
        <img src={thumbnail} alt="" className={classes.attachmentThumb} data-testid="attachment-thumbnail" />
      ) : (
        <IconFile size={15} stroke={1.6} aria-hidden />
      )}
      <span className={classes.attachmentName}>{a.name}</span>
      <span className={classes.attachmentSize}>{formatSize(a.size, i18n.language)}</span>
    </button>
  );
}

/** A row of file chips. */
export function AttachmentChips({ attachments }: { attachments: Attachment[] }) {
  return (
    <Group gap={6} className={classes.attachments}>
      {attachments.map((a) => (
        <AttachmentChip key={a.attachmentId} attachment={a} />
      ))}
    </Group>
  );
}
