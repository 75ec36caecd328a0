import { ActionIcon, CloseButton, Group, Progress, Text, Textarea } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowUp,
  IconFile,
  IconPaperclip,
  IconPlayerStopFilled,
} from '@tabler/icons-react';
import {
  type KeyboardEvent,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { formatSize } from '../../../ui/format.ts';
import { PromptPicker, type PromptPickerHandle, slashQuery } from '../../prompts/index.ts';
import type { UploadItem } from '../hooks/useUploads.ts';
import { hasThumbnail } from '../lib/thumbnails.ts';
import { prefetchRenderer } from '../markdown/Markdown.tsx';
import classes from './Composer.module.css';

export interface ComposerUploads {
  items: UploadItem[];
  uploading: boolean;
  ids: string[];
  add(files: readonly File[]): void;
  remove(key: string): void;
  clear(): void;
}

/** What the chat can ask of its composer. */
export interface ComposerHandle {
  /** Gives back the text of a send the server refused (nothing stored), before anything typed since. */
  restore(text: string): void;
}

export interface ComposerProps {
  ref?: Ref<ComposerHandle>;
  /** The socket is not ready: typing is allowed, sending is not. */
  offline: boolean;
  /** An answer is being generated: the send button becomes stop. */
  busy: boolean;
  /** Sends; false keeps the text (nothing was sent). A later refusal comes back through `ref`'s `restore`. */
  onSend: (text: string, attachmentIds: string[]) => boolean;
  onStop: () => void;
  uploads?: ComposerUploads;
  /**
   * Without `uploads`: files picked here go elsewhere to be uploaded (the home page's box opens a
   * new chat with them), with the text typed so far.
   */
  onAttach?: (files: File[], text: string) => void;
  placeholder?: string;
  /** The santito the chat is with: the box says who is asked (unless `placeholder` says more). */
  santitoName?: string;
  autoFocus?: boolean;
  /** Initial text (e.g. a conversation starter picked elsewhere). */
  initialText?: string;
  /**
   * `/` at the start of a line opens the person's prompt library (docs/ARCHITECTURE.md#prompt-library);
   * off where there is no signed-in person (an embedded chat's visitor).
   */
  promptLibrary?: boolean;
}

/** Enter sends; Shift+Enter (and Enter while composing an IME word) makes a new line. */
export function isSendKey(
  event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'> & {
    nativeEvent?: { isComposing?: boolean };
  },
): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.altKey && event.nativeEvent?.isComposing !== true;
}

/** A picked image as the browser already has it: an object URL, revoked when the chip goes away. */
function useLocalThumbnail(file: File | undefined): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !hasThumbnail(file.type)) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => {
      URL.revokeObjectURL(url);
      setSrc(null);
    };
  }, [file]);
  return src;
}

function UploadChip({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  const thumbnail = useLocalThumbnail(item.status === 'error' ? undefined : item.file);
  const errorText = item.error
    ? 'key' in item.error
      ? t(item.error.key, item.error.vars)
      : item.error.message
    : '';
  return (
    <div
      className={classes.chip}
      data-status={item.status}
      data-testid="upload-chip"
      title={errorText || item.name}
    >
      {item.status === 'error' ? (
        <IconAlertCircle size={15} className={classes.chipErrorIcon} aria-hidden />
      ) : thumbnail ? (
        <img src={thumbnail} alt="" className={classes.chipThumb} data-testid="upload-thumbnail" />
      ) : (
        <IconFile size={15} aria-hidden />
      )}
      <div className={classes.chipBody}>
        <Text size="xs" className={classes.chipName}>
          {item.name}
        </Text>
        {item.status === 'uploading' ? (
          <Progress
            value={Math.round(item.progress * 100)}
            size="xs"
            aria-label={t('chats.attachments.uploading', { name: item.name })}
          />
        ) : item.status === 'error' ? (
          <Text size="xs" c="error.7" className={classes.chipError} role="alert">
            {errorText}
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            {formatSize(item.size, i18n.language)}
          </Text>
        )}
      </div>
      <CloseButton
        size="xs"
        onClick={onRemove}
        aria-label={t('chats.attachments.remove', { name: item.name })}
      />
    </div>
  );
}

/** The message box: autosizing, Enter to send, attachments with upload progress, stop while generating. */
export function Composer({
  ref,
  offline,
  busy,
  onSend,
  onStop,
  uploads,
  onAttach,
  placeholder,
  santitoName,
  autoFocus,
  initialText = '',
  promptLibrary = false,
}: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initialText);
  const prompts = useSlashPrompts(text, setText, promptLibrary);
  useImperativeHandle(
    ref,
    () => ({
      restore: (draft) => setText((current) => (current.trim() === '' ? draft : `${draft}\n${current}`)),
    }),
    [],
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const takeFiles = uploads ? uploads.add : onAttach ? (files: File[]) => onAttach(files, text) : null;
  const uploadErrors = uploads?.items.some((i) => i.status === 'error') ?? false;
  const canSend =
    !offline &&
    !busy &&
    !(uploads?.uploading ?? false) &&
    (text.trim() !== '' || (uploads?.ids.length ?? 0) > 0) &&
    !uploadErrors;

  const submit = () => {
    if (!canSend) return;
    if (onSend(text.trim(), uploads?.ids ?? [])) {
      setText('');
      uploads?.clear();
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: it only notices focus leaving the box and its picker
    <div className={classes.wrap} onBlur={prompts.onBlur}>
      <form
        className={classes.composer}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        data-testid="composer"
      >
        {uploads && uploads.items.length > 0 ? (
          <div className={classes.chips}>
            {uploads.items.map((item) => (
              <UploadChip key={item.key} item={item} onRemove={() => uploads.remove(item.key)} />
            ))}
          </div>
        ) : null}
        <Group gap={6} align="flex-end" wrap="nowrap" className={classes.row}>
          {takeFiles ? (
            <>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                onChange={(e) => {
                  const files = Array.from(e.currentTarget.files ?? []);
                  if (files.length > 0) takeFiles(files);
                  e.currentTarget.value = '';
                }}
                data-testid="file-input"
              />
              <Tooltip label={t('chats.attachments.attach')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="neutral.7"
                  size={38}
                  radius="xl"
                  onClick={() => fileInput.current?.click()}
                  aria-label={t('chats.attachments.attach')}
                  disabled={offline}
                >
                  <IconPaperclip size={20} stroke={1.7} />
                </ActionIcon>
              </Tooltip>
            </>
          ) : null}
          <Textarea
            className={classes.input}
            variant="unstyled"
            autosize
            minRows={1}
            maxRows={10}
            ref={prompts.input}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              prompts.onCaret(e.currentTarget.selectionStart);
              prefetchRenderer();
            }}
            onSelect={(e) => prompts.onCaret(e.currentTarget.selectionStart)}
            {...prompts.inputAria}
            onKeyDown={(e) => {
              if (prompts.keyDown(e)) return;
              if (isSendKey(e)) {
                e.preventDefault();
                submit();
              }
            }}
            placeholder={
              offline
                ? t('chats.connection.composer_offline')
                : (placeholder ??
                  (santitoName
                    ? t('chats.composer.placeholder_santito', { name: santitoName })
                    : t('chats.composer.placeholder')))
            }
            aria-label={t('chats.composer.label')}
            autoFocus={autoFocus}
            data-testid="composer-input"
            maxLength={100_000}
          />
          {busy ? (
            <Tooltip label={t('chats.composer.stop')} withArrow>
              <ActionIcon
                size={38}
                radius="xl"
                color="neutral.8"
                onClick={onStop}
                aria-label={t('chats.composer.stop')}
                disabled={offline}
                data-testid="stop"
              >
                <IconPlayerStopFilled size={16} />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Tooltip label={t('chats.composer.send')} withArrow>
              <ActionIcon
                type="submit"
                size={38}
                radius="xl"
                disabled={!canSend}
                aria-label={t('chats.composer.send')}
                data-testid="send"
              >
                <IconArrowUp size={20} stroke={2} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </form>
      {prompts.picker}
    </div>
  );
}

/**
 * The prompt library in the message box: where the caret's `/query` is, the picker while it is
 * open, and the chosen prompt put in its place (never sent: the person reads it first).
 */
function useSlashPrompts(text: string, setText: (text: string) => void, enabled: boolean) {
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<PromptPickerHandle>(null);
  const listboxId = useId();
  const [caret, setCaret] = useState(text.length);
  // The `/` whose picker Escape closed: it stays closed until another `/` starts a line.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [placeCaret, setPlaceCaret] = useState<{ at: number } | null>(null);
  const slash = enabled ? slashQuery(text, caret) : null;
  if (dismissed !== null && slash?.start !== dismissed) setDismissed(null);
  const open = slash !== null && slash.start !== dismissed;

  useLayoutEffect(() => {
    if (!placeCaret) return;
    input.current?.focus();
    input.current?.setSelectionRange(placeCaret.at, placeCaret.at);
  }, [placeCaret]);

  const close = () => {
    if (slash) setDismissed(slash.start);
  };
  const insert = (content: string) => {
    if (!slash) return;
    const at = slash.start + content.length;
    setText(text.slice(0, slash.start) + content + text.slice(slash.end));
    setCaret(at);
    setDismissed(slash.start);
    setPlaceCaret({ at });
  };
  const cancel = () => {
    close();
    input.current?.focus();
  };
  const onActiveChange = useCallback((id: string | null) => setActiveId(id), []);

  return {
    input,
    onCaret: (at: number) => setCaret(at),
    inputAria: enabled
      ? {
          'aria-autocomplete': 'list' as const,
          'aria-controls': open ? listboxId : undefined,
          'aria-activedescendant': open ? (activeId ?? undefined) : undefined,
        }
      : {},
    /** A key in the message box: true when the open picker took it. */
    keyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
      if (!open) return false;
      if (event.key === 'Escape') {
        event.preventDefault();
        // A chat's drawer or dialog around the box stays open: Escape closed the picker only.
        event.stopPropagation();
        close();
        return true;
      }
      // The panel is still on its way: Enter waits for it rather than sending the `/query`.
      const taken = picker.current ? picker.current.keyDown(event) : isSendKey(event);
      if (taken) event.preventDefault();
      return taken;
    },
    /** Focus leaving the box and its picker closes the picker. */
    onBlur(event: { currentTarget: HTMLElement; relatedTarget: EventTarget | null }) {
      if (open && !(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)))
        close();
    },
    picker:
      open && slash ? (
        <PromptPicker
          ref={picker}
          query={slash.query}
          listboxId={listboxId}
          onActiveChange={onActiveChange}
          onInsert={insert}
          onCancel={cancel}
        />
      ) : null,
  };
}

/** What Enter does, and that answers may be wrong: under every chat's message box. */
export function ComposerHint({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" ta="center" className={className}>
      {t('chats.composer.hint')}
    </Text>
  );
}
