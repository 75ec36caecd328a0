import type { HandoffQuery } from '../handoffQuery.ts';
import { useEditorHandoff } from '../hooks/useEditorHandoff.ts';
import HandoffConfirm from './HandoffConfirm.tsx';
import HandoffProgress from './HandoffProgress.tsx';

/** Runs the editor handoff for the signed-in user and shows its progress ("Abrindo o VS Code…"). */
export default function EditorHandoff({ query }: { query: HandoffQuery }) {
  const handoff = useEditorHandoff(query, true);
  if ((handoff.status === 'confirm' || handoff.status === 'refused') && handoff.target) {
    return <HandoffConfirm target={handoff.target} onConfirm={() => void handoff.run()} />;
  }
  return (
    <HandoffProgress
      status={
        handoff.status === 'idle' || handoff.status === 'confirm'
          ? 'running'
          : handoff.status === 'refused'
            ? 'failed'
            : handoff.status
      }
      onRetry={() => void handoff.run()}
    />
  );
}
