import type { ChatImportReport } from '@assistente/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { chatKeys } from '../../chats/index.ts';
import { ChatImportError, uploadExport } from '../api.ts';

/** Where an import stands: sending the file (with progress), the server reading it, its report, or why not. */
export type ChatImportState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string; progress: number }
  | { phase: 'importing'; fileName: string }
  | { phase: 'done'; fileName: string; report: ChatImportReport }
  | { phase: 'failed'; fileName: string; error: ChatImportError };

/**
 * One import at a time: `start(file)` uploads it and follows it to its report; the chat lists are
 * asked again once anything was imported, so the sidebar shows the new chats.
 */
export function useChatImport() {
  const client = useQueryClient();
  const [state, setState] = useState<ChatImportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page cancels an upload still under way (the server keeps nothing of it).
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (file: File) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const fileName = file.name;
      setState({ phase: 'uploading', fileName, progress: 0 });
      try {
        const report = await uploadExport(file, {
          signal: abort.signal,
          onProgress: (fraction) => {
            if (abort.signal.aborted) return;
            // Every byte sent: the server is reading the export now.
            setState(
              fraction >= 1
                ? { phase: 'importing', fileName }
                : { phase: 'uploading', fileName, progress: fraction },
            );
          },
        });
        if (abort.signal.aborted) return;
        setState({ phase: 'done', fileName, report });
        if (report.imported > 0) await client.invalidateQueries({ queryKey: chatKeys.lists() });
      } catch (error) {
        if (abort.signal.aborted) return;
        const failure =
          error instanceof ChatImportError
            ? error
            : new ChatImportError(error instanceof Error ? error.message : String(error), null, null, null);
        setState({ phase: 'failed', fileName, error: failure });
      }
    },
    [client],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    setState({ phase: 'idle' });
  }, []);

  return { state, start, reset };
}
