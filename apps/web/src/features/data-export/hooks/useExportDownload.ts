import type { Export } from '@assistente/contracts';
import { useCallback, useRef, useState } from 'react';
import { downloadExport } from '../api.ts';

/** Where an export stands on this screen. */
export type ExportProgress =
  | { phase: 'idle' }
  | { phase: 'creating' }
  | { phase: 'downloading'; bytes: number }
  | { phase: 'done'; bytes: number; fileName: string }
  | { phase: 'error'; error: unknown };

/**
 * Asks for an export (`create`), then downloads it with the bytes so far; one at a time. The
 * progress is what the screen shows; `start` resolves with the saved file's name, or undefined.
 */
export function useExportDownload() {
  const [progress, setProgress] = useState<ExportProgress>({ phase: 'idle' });
  const running = useRef(false);
  const start = useCallback(async (create: () => Promise<Export>): Promise<string | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setProgress({ phase: 'creating' });
    let bytes = 0;
    try {
      const made = await create();
      setProgress({ phase: 'downloading', bytes });
      const fileName = await downloadExport(made, (n) => {
        bytes = n;
        setProgress({ phase: 'downloading', bytes: n });
      });
      setProgress({ phase: 'done', bytes, fileName });
      return fileName;
    } catch (error) {
      setProgress({ phase: 'error', error });
      return undefined;
    } finally {
      running.current = false;
    }
  }, []);
  const reset = useCallback(() => setProgress({ phase: 'idle' }), []);
  const busy = progress.phase === 'creating' || progress.phase === 'downloading';
  return { progress, busy, start, reset };
}
