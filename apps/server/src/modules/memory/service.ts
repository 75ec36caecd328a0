import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { forAnswer } from './answers.ts';
import {
  createMemory,
  deleteMemory,
  listMemories,
  memoriesOf,
  saveMemory,
  updateMemory,
} from './memories.ts';
import { getSettings, putSettings } from './settings.ts';
import { close, createMemoryState, memoryOn } from './state.ts';

/** A person's memories and each domain's switch (docs/ARCHITECTURE.md#memory). */
export function memoryService(ctx: AppContext) {
  return withState(createMemoryState(ctx), {
    getSettings,
    putSettings,
    /** Whether a domain has memory on (cached; dropped on every replica when it changes). */
    enabled: memoryOn,
    list: listMemories,
    create: createMemory,
    update: updateMemory,
    remove: deleteMemory,
    /** A memory the model's `remember` tool saves for the chat's owner. */
    save: saveMemory,
    /** A person's memories for their export. */
    memoriesOf,
    forAnswer,
    close,
  });
}

export type MemoryService = ReturnType<typeof memoryService>;
