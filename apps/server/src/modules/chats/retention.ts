import { RetentionLimits } from '@assistente/contracts';
import { PacedBatches } from '../../lib/paced-batches.ts';
import * as abandoned from './abandoned-chats.ts';
import { forgetFiles, removeDeleted } from './purge.ts';
import { type ChatsState, deleteObjects } from './state.ts';

export type { ExpiryRule } from './abandoned-chats.ts';
// The channel where forgotten files are announced, for whoever deletes files (erasure too).
export { ATTACHMENTS_REMOVED } from './purge.ts';

/** Between two statements of a retention run: lets streams and requests waiting on the database go first. */
export type Pause = () => Promise<void>;

const BATCH = RetentionLimits.batchRows;

/**
 * Deletes a domain's chats past `rule` (docs/ARCHITECTURE.md#retention) through the purge of deleted
 * chats: each batch is taken out of use (marked deleted as of its last activity), then purged as
 * deleted chats are, their messages a paced statement at a time, then the chats with their links
 * and files.
 */
export async function expireChats(
  s: ChatsState,
  rule: abandoned.ExpiryRule,
  pause: Pause,
): Promise<{ chats: number; visitorChats: number; messages: number; files: number }> {
  const done = { chats: 0, visitorChats: 0, messages: 0, files: 0 };
  const paced = new PacedBatches(BATCH);
  for (;;) {
    const marked = await paced.run((size) => abandoned.markExpired(s.ctx.db, rule, size));
    if (marked.length === 0) return done;
    await pause();
    const purged = await removeDeleted(
      s,
      marked.map((m) => m.id),
      pause,
    );
    done.messages += purged.messages;
    done.files += purged.files;
    for (const m of marked) {
      if (m.visitor) done.visitorChats++;
      else done.chats++;
    }
    await pause();
  }
}

/**
 * Deletes a domain's files uploaded before `rule.before` from storage (local or S3) and marks their
 * rows removed; the messages stay. A file storage would not delete stays recorded as stored, and
 * the domain's files wait for the next run (`failed`).
 */
export async function expireFiles(
  s: ChatsState,
  rule: { domainId: string; before: Date; exemptPinned: boolean },
  pause: Pause,
): Promise<{ files: number; failed: number }> {
  let files = 0;
  const paced = new PacedBatches(BATCH);
  for (;;) {
    const batch = await paced.run((size) => abandoned.oldFiles(s.ctx.db, rule, size));
    if (batch.length === 0) return { files, failed: 0 };
    const failed = new Set(
      await deleteObjects(
        s,
        batch.map((f) => f.storageKey),
      ),
    );
    const gone = batch.filter((f) => !failed.has(f.storageKey)).map((f) => f.id);
    await abandoned.markFilesRemoved(s.ctx.db, gone);
    await forgetFiles(s, gone);
    files += gone.length;
    if (failed.size > 0) return { files, failed: failed.size };
    await pause();
  }
}
