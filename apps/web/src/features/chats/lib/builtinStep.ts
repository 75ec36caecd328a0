import { type BuiltinToolName, BuiltinToolNameSchema, type ToolPart } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';

const PREFIX = 'builtin:';

/** The built-in a step calls, or null for an MCP tool (or a built-in this web does not know yet). */
export function builtinOf(part: ToolPart): BuiltinToolName | null {
  if (!part.tool.startsWith(PREFIX)) return null;
  const parsed = BuiltinToolNameSchema.safeParse(part.tool.slice(PREFIX.length));
  return parsed.success ? parsed.data : null;
}

function stringField(input: unknown, key: string): string | null {
  if (typeof input !== 'object' || input === null || !(key in input)) return null;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** Done, under way, or not run (waiting, refused, failed): the tense the sentence takes. */
function tense(status: ToolPart['status']): 'done' | 'running' | 'intent' {
  return status === 'done' || status === 'running' ? status : 'intent';
}

/**
 * A built-in step in the reader's words: its title (the server sends English) and what it did,
 * "Searched the web for “…”"; the summary is null when the input lacks what the sentence needs.
 */
export function builtinStepText(
  t: TFunction,
  name: BuiltinToolName,
  part: ToolPart,
): { title: string; summary: string | null } {
  const key = `chats.tool.builtin.${name}`;
  const title = t(`${key}.title`);
  const when = tense(part.status);
  switch (name) {
    case 'web_search':
    case 'knowledge_search': {
      const query = stringField(part.input, 'query');
      return { title, summary: query ? t(`${key}.${when}`, { query }) : null };
    }
    case 'fetch_page': {
      const url = stringField(part.input, 'url');
      return { title, summary: url ? t(`${key}.${when}`, { host: hostOf(url) }) : null };
    }
  }
}
