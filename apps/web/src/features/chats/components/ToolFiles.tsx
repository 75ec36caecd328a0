import type { Attachment } from '@assistente/contracts';
import { ActionIcon, Loader, Text } from '@mantine/core';
import { IconDownload, IconPhotoOff } from '@tabler/icons-react';
import { useContext } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { formatSize } from '../../../ui/format.ts';
import { downloadFile, useFetchedImageState } from '../../auth/index.ts';
import { AttachmentChips, FilePathContext } from './AttachmentChips.tsx';
import classes from './ToolFiles.module.css';

const isImage = (file: Attachment) => file.contentType.toLowerCase().startsWith('image/');

/** An image a tool made, shown whole (an `<img>` cannot send the token: it is fetched first). */
function ToolImage({ file }: { file: Attachment }) {
  const { t, i18n } = useTranslation();
  const path = useContext(FilePathContext)(file);
  const image = useFetchedImageState(path, 'chats');
  const download = t('chats.attachments.download', { name: file.name });
  return (
    <figure className={classes.figure} data-testid="tool-image">
      {image.status === 'ready' && image.src ? (
        <img src={image.src} alt={file.name} className={classes.image} />
      ) : image.status === 'failed' ? (
        <Text size="xs" c="error.7" className={classes.placeholder} data-testid="tool-image-failed">
          <IconPhotoOff size={16} aria-hidden />
          {t('chats.tool.files.image_failed', { name: file.name })}
        </Text>
      ) : (
        <div className={classes.placeholder} role="status">
          <Loader size={14} aria-hidden />
          <Text size="xs" c="dimmed" component="span">
            {t('chats.tool.files.image_loading', { name: file.name })}
          </Text>
        </div>
      )}
      <figcaption className={classes.caption}>
        <span className={classes.name}>{file.name}</span>
        <span className={classes.size}>{formatSize(file.size, i18n.language)}</span>
        <Tooltip label={download} withArrow>
          <ActionIcon
            variant="subtle"
            color="neutral.6"
            size="sm"
            aria-label={download}
            onClick={() => void downloadFile(path, file.name).catch(() => undefined)}
          >
            <IconDownload size={15} />
          </ActionIcon>
        </Tooltip>
      </figcaption>
    </figure>
  );
}

/**
 * The files a tool call made (a chart, a table), kept as the chat's attachments: images shown
 * under the step, the others as chips that download them.
 */
export function ToolFiles({ files }: { files: Attachment[] }) {
  const { t } = useTranslation();
  const images = files.filter(isImage);
  const others = files.filter((file) => !isImage(file));
  return (
    <section className={classes.files} aria-label={t('chats.tool.files.label')} data-testid="tool-files">
      {images.map((file) => (
        <ToolImage key={file.attachmentId} file={file} />
      ))}
      {others.length > 0 ? <AttachmentChips attachments={others} /> : null}
    </section>
  );
}
