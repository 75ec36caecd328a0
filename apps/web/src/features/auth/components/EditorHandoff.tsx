import type { HandoffQuery } from '../handoffQuery.ts';
import { useEditorHandoff } from '../hooks/useEditorHandoff.ts';
import HandoffProgress from './HandoffProgress.tsx';

/** Runs the editor handoff for the signed-in user and shows its progress ("Abrindo o VS Code…"). */
export default function EditorHandoff({ query }: { query: HandoffQuery }) {
  const handoff = useEditorHandoff(query, true);
  return (
    <HandoffProgress
      status={handoff.status === 'idle' ? 'running' : handoff.status}
      onRetry={() => void handoff.run()}
    />
  );
}
