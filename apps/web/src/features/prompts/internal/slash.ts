import type { Prompt } from '@assistente/contracts';

/** The `/…` a person is typing: where it starts and ends in the text, and what follows the `/`. */
export interface SlashQuery {
  start: number;
  end: number;
  query: string;
}

/** Longer than this, a line starting with `/` is a message, not a search. */
const QUERY_MAX = 60;

/**
 * The `/query` the caret is in: a line (the message's first or any later one) that starts with `/`,
 * the caret past the `/`. Null when the caret is elsewhere.
 */
export function slashQuery(text: string, caret: number): SlashQuery | null {
  const start = text.lastIndexOf('\n', caret - 1) + 1;
  if (text[start] !== '/' || caret <= start) return null;
  const newline = text.indexOf('\n', caret);
  const end = newline === -1 ? text.length : newline;
  const query = text.slice(start + 1, end);
  if (query.length > QUERY_MAX || /^\s/.test(query)) return null;
  return { start, end, query };
}

/** Lowercase, without accents: "Reunião" is found by "reuniao". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The prompts a query finds, best first: commands that start with it, then commands that contain
 * it, then titles that contain it.
 */
export function matchPrompts(prompts: readonly Prompt[], query: string): Prompt[] {
  const q = fold(query.trim());
  if (q === '') return [...prompts];
  const rank = (prompt: Prompt): number => {
    const command = fold(prompt.command);
    if (command.startsWith(q)) return 0;
    if (command.includes(q)) return 1;
    return fold(prompt.title).includes(q) ? 2 : 3;
  };
  return prompts
    .map((prompt) => ({ prompt, rank: rank(prompt) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.prompt);
}
