import { type Memory, type MemoryInput, MemoryLimits, type MemoryList } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { estimateTokens } from '../usage/index.ts';
import { memoryNotFound, memoryOff, tooManyMemories } from './errors.ts';
import { type MemoryState, memoryOn } from './state.ts';
import type { MemoryRow } from './store.ts';

/*
 * A person's own memories at /api/v1/me/memories (docs/ARCHITECTURE.md#memory): only ever read and
 * changed for the signed-in person whose they are.
 */

export const toMemory = (row: MemoryRow): Memory => ({
  id: row.id,
  text: row.text,
  source: row.source,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** One memory as a line of the instructions (what is counted against MemoryLimits.injectedTokens). */
export const memoryLine = (text: string) => `- ${text.replace(/\s+/g, ' ').trim()}`;

/**
 * How many of `texts` (newest first) go into a chat's instructions: the newest whose lines
 * together fit in MemoryLimits.injectedTokens, counted as the usage ledger counts a model's input.
 */
export async function fitting(texts: readonly string[]): Promise<number> {
  let tokens = 0;
  let n = 0;
  for (const text of texts) {
    tokens += await estimateTokens(`${memoryLine(text)}\n`);
    if (tokens > MemoryLimits.injectedTokens) break;
    n++;
  }
  return n;
}

/** GET /api/v1/me/memories: newest first, with how many of them a chat is given. */
export async function listMemories(s: MemoryState, caller: UserCaller): Promise<MemoryList> {
  const [enabled, rows] = await Promise.all([memoryOn(s, caller.domain.id), s.store.list(caller.user.id)]);
  return {
    enabled,
    memories: rows.map(toMemory),
    injected: enabled ? await fitting(rows.map((r) => r.text)) : 0,
  };
}

/** Every memory of a person, newest first, for their export (docs/ARCHITECTURE.md#export-and-erasure). */
export async function memoriesOf(s: MemoryState, userId: string): Promise<Memory[]> {
  return (await s.store.list(userId)).map(toMemory);
}

/**
 * Saves a memory for `owner`: refused while their domain has memory off, and once they keep
 * MemoryLimits.perPerson. `source` says who wrote it: the person, or the model's `remember` tool.
 */
export async function saveMemory(
  s: MemoryState,
  owner: { userId: string; domainId: string },
  text: string,
  source: Memory['source'],
): Promise<Memory> {
  if (!(await memoryOn(s, owner.domainId))) throw memoryOff();
  const row = await s.store.insert(
    { userId: owner.userId, domainId: owner.domainId, text, source },
    MemoryLimits.perPerson,
  );
  if (!row) throw tooManyMemories();
  return toMemory(row);
}

/** POST /api/v1/me/memories */
export function createMemory(s: MemoryState, caller: UserCaller, input: MemoryInput): Promise<Memory> {
  return saveMemory(s, { userId: caller.user.id, domainId: caller.domain.id }, input.text, 'user');
}

/** PUT /api/v1/me/memories/{id}: another person's memory is not found. */
export async function updateMemory(
  s: MemoryState,
  caller: UserCaller,
  id: string,
  input: MemoryInput,
): Promise<Memory> {
  const row = await s.store.update(caller.user.id, id, input.text);
  if (!row) throw memoryNotFound();
  return toMemory(row);
}

/** DELETE /api/v1/me/memories/{id}: another person's memory is not found. */
export async function deleteMemory(s: MemoryState, caller: UserCaller, id: string): Promise<void> {
  if (!(await s.store.remove(caller.user.id, id))) throw memoryNotFound();
}
