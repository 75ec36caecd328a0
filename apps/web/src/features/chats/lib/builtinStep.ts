import { type BuiltinToolName, BuiltinToolNames, type ToolPart } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';

const PREFIX = 'builtin:';

/** The built-in a step calls, or null for an MCP tool (or a built-in this web does not know yet). */
export function builtinOf(part: ToolPart): BuiltinToolName | null {
  if (!part.tool.startsWith(PREFIX)) return null;
  const name = part.tool.slice(PREFIX.length);
  return (BuiltinToolNames as readonly string[]).includes(name) ? (name as BuiltinToolName) : null;
}

function stringField(input: unknown, key: string): string | null {
  if (typeof input !== 'object' || input === null || !(key in input)) return null;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** A page as a step names it: its site and path, so two pages of one site read apart. */
function pageOf(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    const page = `${hostname}${pathname.replace(/\/+$/, '')}`;
    return page.length > 60 ? `${page.slice(0, 59)}…` : page;
  } catch {
    return url;
  }
}

/** How a language is called in a sentence; the API's code uppercased for one without a name here. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  py: 'Python',
  js: 'JavaScript',
  ts: 'TypeScript',
  r: 'R',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  cpp: 'C++',
  f90: 'Fortran',
};

/** The name of a `code_interpreter` language (`py` → Python). */
export function languageName(lang: string): string {
  return LANGUAGE_NAMES[lang.toLowerCase()] ?? lang.toUpperCase();
}

/** The code a `code_interpreter` step runs and its language, or null when the input lacks them. */
export function codeOf(part: ToolPart): { lang: string | null; code: string } | null {
  const input = part.input;
  if (typeof input !== 'object' || input === null || !('code' in input)) return null;
  const code = (input as Record<string, unknown>).code;
  if (typeof code !== 'string') return null;
  return { lang: stringField(input, 'lang'), code };
}

/** The longest prompt a step's sentence quotes whole; the details show it all. */
const PROMPT_IN_SENTENCE = 60;

/** A text cut at `max` characters (at a word where one is near) with an ellipsis. */
export function clip(text: string, max = PROMPT_IN_SENTENCE): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What a `generate_image` step draws and at what size, or null when the input lacks a prompt. */
export function imageRequestOf(part: ToolPart): { prompt: string; size: string | null } | null {
  const prompt = stringField(part.input, 'prompt');
  return prompt ? { prompt, size: stringField(part.input, 'size') } : null;
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
      return { title, summary: url ? t(`${key}.${when}`, { host: pageOf(url) }) : null };
    }
    case 'code_interpreter': {
      const lang = stringField(part.input, 'lang');
      return { title, summary: lang ? t(`${key}.${when}`, { language: languageName(lang) }) : null };
    }
    case 'generate_image': {
      const prompt = stringField(part.input, 'prompt');
      return { title, summary: prompt ? t(`${key}.${when}`, { prompt: clip(prompt) }) : null };
    }
    case 'remember': {
      const text = stringField(part.input, 'text');
      return { title, summary: text ? t(`${key}.${when}`, { text: clip(text) }) : null };
    }
  }
}
