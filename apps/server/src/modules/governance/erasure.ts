import type { UserCaller } from '../../lib/caller.ts';
import type { ExportsState } from './export.ts';

/** What erasing a person removed or kept under a pseudonym. */
export interface Erased {
  chats: number;
  files: number;
  privatePrompts: number;
  /** Department and domain prompts passed to the Admin who erased them. */
  promptsHandedOver: number;
  usageEvents: number;
  exports: number;
}

/**
 * Erases a person's content before their user row goes (docs/ARCHITECTURE.md#export-and-erasure),
 * each part through the module that owns it: chats with their messages, links and files (local or
 * S3), private prompts (shared ones pass to `caller`), exports; the usage ledger keeps their
 * spending under a pseudonym. Memories, API keys and their request log, MCP connections and private
 * MCP servers go with the user row's own cascade. Safe to run again after a failure midway.
 */
export async function eraseContent(
  s: ExportsState,
  caller: UserCaller,
  person: { id: string; domainId: string },
): Promise<Erased> {
  const { chats, prompts, usage } = s.ctx.services;
  const erased = await chats.eraseChatsOf(person.id);
  const handed = await prompts.handOver(person.id, caller.user.id);
  const ledger = await usage.pseudonymise(person.id);
  const exports = await s.store.deleteOf(person.id);
  return {
    chats: erased.chats,
    files: erased.files,
    privatePrompts: handed.deleted,
    promptsHandedOver: handed.handedOver,
    usageEvents: ledger.events,
    exports,
  };
}
