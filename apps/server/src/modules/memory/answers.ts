import type { Caller } from '../../lib/caller.ts';
import { fitting, memoryLine } from './memories.ts';
import { type MemoryState, memoryOn } from './state.ts';

/** What an answer gets of its owner's memories (docs/ARCHITECTURE.md#memory). */
export interface AnswerMemory {
  /** The answer may offer the `remember` tool: a signed-in person whose domain has memory on. */
  remember: boolean;
  /** The section of the instructions with their newest memories; absent when none goes in. */
  instructions?: string;
  /** How many memories the section holds. */
  used: number;
}

const NONE: AnswerMemory = { remember: false, used: 0 };

/** The section's heading: the model learns whose these are, and why it has them. */
export const MEMORY_HEADING = 'What you know about this person (they asked you to remember):';

/**
 * The memories of the person an answer is for: their newest that fit in
 * MemoryLimits.injectedTokens. Only a signed-in person's own chats get them: a visitor of an embed
 * or an API key never does. With memory off this reads nothing but the cached switch; with it on,
 * one indexed read of the person's memories.
 */
export async function forAnswer(s: MemoryState, caller: Caller): Promise<AnswerMemory> {
  if (caller.kind !== 'user') return NONE;
  if (!(await memoryOn(s, caller.domain.id))) return NONE;
  const rows = await s.store.list(caller.user.id);
  const used = await fitting(rows.map((r) => r.text));
  if (used === 0) return { remember: true, used: 0 };
  const lines = rows.slice(0, used).map((r) => memoryLine(r.text));
  return { remember: true, instructions: [MEMORY_HEADING, ...lines].join('\n'), used };
}
