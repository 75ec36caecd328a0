import { type Attachment, AttachmentLimits } from '@assistente/contracts';
import { useCallback, useMemo, useRef, useState } from 'react';
import { loadedRuntimeConfig } from '../../../lib/config/runtimeConfig.ts';
import { currentLanguage } from '../../../lib/i18n/index.ts';
import { formatSize } from '../../../ui/format.ts';
import { authorizedRequest } from '../../auth/index.ts';
import { attachmentsPath } from '../api.ts';
import { UploadError, uploadFile } from '../lib/upload.ts';
import { chatsApi } from './chatsApi.ts';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** The picked file, while this page has it (the composer shows an image's thumbnail from it). */
  file?: File;
  /** 0…1 */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  attachment?: Attachment;
  /** A translation key (with its values), or the server's message. */
  error?: { key: string; vars?: Record<string, string> } | { message: string };
}

let keys = 0;

/**
 * The composer's attachments: each file uploads at once (with progress) to the chat, which
 * `ensureChat` provides (a new chat is made on the first file).
 */
export function useUploads(ensureChat: () => Promise<string>) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const chatOf = useRef(new Map<string, string>());

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const countRef = useRef(0);
  countRef.current = items.length;
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const add = useCallback(
    (files: readonly File[]) => {
      const room = Math.max(0, AttachmentLimits.perMessage - countRef.current);
      const accepted = files.slice(0, room);
      const refused = files.slice(room);
      const added: UploadItem[] = [];
      for (const file of accepted) {
        keys += 1;
        const key = `u${keys}`;
        // The server's own limit (UPLOAD_MAX_BYTES), so the two never disagree.
        const maxBytes = loadedRuntimeConfig()?.uploadMaxBytes ?? AttachmentLimits.maxBytes;
        if (file.size > maxBytes) {
          added.push({
            key,
            name: file.name,
            size: file.size,
            progress: 0,
            status: 'error',
            error: {
              key: 'chats.attachments.too_large',
              vars: { size: formatSize(maxBytes, currentLanguage()) },
            },
          });
          continue;
        }
        if (file.size === 0) {
          added.push({
            key,
            name: file.name,
            size: 0,
            progress: 0,
            status: 'error',
            error: { key: 'chats.attachments.empty' },
          });
          continue;
        }
        added.push({ key, name: file.name, size: file.size, file, progress: 0, status: 'uploading' });
        const controller = new AbortController();
        controllers.current.set(key, controller);
        void (async () => {
          try {
            const chatId = await ensureChat();
            chatOf.current.set(key, chatId);
            const { url, headers } = await authorizedRequest(attachmentsPath(chatId));
            const attachment = await uploadFile({
              url,
              headers,
              file,
              signal: controller.signal,
              onProgress: (progress) => patch(key, { progress }),
            });
            patch(key, { status: 'done', progress: 1, attachment });
          } catch (error) {
            if (error instanceof UploadError && error.code === 'ABORTED') return;
            const code = error instanceof UploadError ? error.code : null;
            patch(key, {
              status: 'error',
              error:
                code === 'QUOTA_EXCEEDED' || code === 'PAYLOAD_TOO_LARGE' || code === 'UNSUPPORTED_MEDIA_TYPE'
                  ? { key: `chats.errors.${code}` }
                  : error instanceof Error && error.message
                    ? { message: error.message }
                    : { key: 'chats.attachments.failed' },
            });
          } finally {
            controllers.current.delete(key);
          }
        })();
      }
      for (const file of refused) {
        keys += 1;
        added.push({
          key: `u${keys}`,
          name: file.name,
          size: file.size,
          progress: 0,
          status: 'error',
          error: { key: 'chats.attachments.too_many' },
        });
      }
      countRef.current += added.length;
      setItems((current) => [...current, ...added]);
    },
    [ensureChat, patch],
  );

  const remove = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    const item = itemsRef.current.find((i) => i.key === key);
    const chatId = chatOf.current.get(key);
    if (item?.attachment && chatId) {
      // Not sent yet: the server forgets the file too.
      void chatsApi()
        .deleteAttachment(chatId, item.attachment.attachmentId)
        .catch(() => undefined);
    }
    setItems((list) => list.filter((i) => i.key !== key));
  }, []);

  /** After a send: the files now belong to the message. */
  const clear = useCallback(() => {
    setItems([]);
    chatOf.current.clear();
  }, []);

  /** A send the server refused: its files come back (still stored in their chat) to be sent again. */
  const restore = useCallback((returned: readonly UploadItem[]) => {
    const back = returned.filter((r) => !itemsRef.current.some((i) => i.key === r.key));
    for (const item of back) if (item.attachment) chatOf.current.set(item.key, item.attachment.chatId);
    countRef.current += back.length;
    setItems((current) => [...back.filter((r) => !current.some((i) => i.key === r.key)), ...current]);
  }, []);

  const state = useMemo(() => {
    const uploading = items.some((i) => i.status === 'uploading');
    const ids = items.flatMap((i) =>
      i.status === 'done' && i.attachment ? [i.attachment.attachmentId] : [],
    );
    return { uploading, ids };
  }, [items]);

  return { items, add, remove, clear, restore, ...state };
}

export type Uploads = ReturnType<typeof useUploads>;
