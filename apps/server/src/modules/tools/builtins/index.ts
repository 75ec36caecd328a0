import {
  BUILTIN_READ_ONLY,
  BuiltinLimits,
  type BuiltinToolName,
  BuiltinToolNames,
  type Citation,
  KNOWLEDGE_SOURCE_REF_KIND,
  MemoryInputSchema,
  MemoryLimits,
} from '@assistente/contracts';
import { AppError } from '../../../lib/errors.ts';
import { addressProblemOf } from '../../../lib/ssrf.ts';
import { knowledgePassages } from '../../knowledge/index.ts';
import { capOutput, type ToolOutput } from '../connections.ts';
import type { ToolsState } from '../state.ts';
import { decide, type StoredPolicy, webSearchKeyBinding } from '../tool-policy.ts';
import { CODE_LANGUAGES, CodeApiFailed, runCode, type ToolFiles } from './code-interpreter.ts';
import { fetchPage, PageUnreadable } from './fetch-page.ts';
import { drawImage, IMAGE_SIZES, type ImageLedger, PROMPT_MAX } from './generate-image.ts';
import { SearchFailed, searchWeb } from './web-search.ts';

/*
 * The tools Assistente offers itself (docs/ARCHITECTURE.md#built-in-tools), on the same loop,
 * policy and audit as MCP tools. What they find becomes the answer's numbered citations.
 */

/**
 * What a santito's answer gives its built-ins: the santito's knowledge and whose it is; who asks,
 * in which chat, and that chat's files (absent: no tool that works on files is offered).
 */
export interface BuiltinContext {
  domainId: string;
  knowledge: ReadonlyArray<{ kind: string; ref: string }>;
  userId?: string;
  chatId?: string;
  files?: ToolFiles;
  /** Who pays for what a built-in spends (an image): the answer's ledger entry. */
  ledger?: ImageLedger;
  /** Whether the domain has an image model (found before the answer, as it may list models). */
  images?: boolean;
  /**
   * Whose memory `remember` saves to: the signed-in person the answer is for, when their domain has
   * memory on (docs/ARCHITECTURE.md#memory). Absent, `remember` is not offered: never to a visitor
   * or an API key.
   */
  remember?: { userId: string; domainId: string };
}

/** What the model is told of each: when to call it, and how to cite what it returns. */
const DEFINITIONS: Record<
  BuiltinToolName,
  { title: string; description: string; inputSchema: Record<string, unknown> }
> = {
  web_search: {
    title: 'Web search',
    description:
      'Searches the web. Returns numbered results (title, address, snippet). Cite what you use with its number in brackets, like [1]; read a result in full with fetch_page when its snippet is not enough.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for, in a few words.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  fetch_page: {
    title: 'Read a page',
    description:
      'Reads a web page and returns its main text as Markdown, numbered as a source. Cite it with its number in brackets, like [2].',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The http or https address of the page.' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  generate_image: {
    title: 'Image generation',
    description:
      "Draws one image from a description with the organisation's image model. Describe the subject, style, colours and composition. The image is shown to the person and kept in the chat, so do not link it.",
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'What to draw, in detail.' },
        size: { type: 'string', enum: [...IMAGE_SIZES], description: 'Square, landscape or portrait.' },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
  },
  code_interpreter: {
    title: 'Code interpreter',
    description:
      "Runs code in a sandbox without network access and returns what it printed. The chat's files are in /mnt/data/. Print every result you need; save charts and tables as files (matplotlib: plt.savefig('chart.png')) — they are shown to the person, so do not link them. Each run starts fresh.",
    inputSchema: {
      type: 'object',
      properties: {
        lang: { type: 'string', enum: [...CODE_LANGUAGES], description: 'The language: py for Python.' },
        code: { type: 'string', description: 'The whole program to run.' },
        args: { type: 'array', items: { type: 'string' }, description: 'Command-line arguments, if any.' },
      },
      required: ['lang', 'code'],
      additionalProperties: false,
    },
  },
  knowledge_search: {
    title: 'Knowledge search',
    description:
      "Searches this assistant's knowledge sources (the organisation's documents). Returns numbered passages; cite what you use with its number in brackets, like [1]. Search again with other words when nothing fits.",
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  remember: {
    title: 'Remember',
    description:
      'Saves something about the person for their later chats: a preference, a fact about them or their work they want you to keep. Use it when they ask you to remember something, in one short sentence in their language. They see and edit their memories in Settings → Memory; do not save secrets or anything they did not ask you to keep.',
    inputSchema: {
      type: 'object',
      properties: {
        text: {
          type: 'string',
          maxLength: MemoryLimits.textMax,
          description: 'What to remember, as one short sentence about the person.',
        },
      },
      required: ['text'],
      additionalProperties: false,
    },
  },
};

/**
 * Whether a built-in runs without asking when no rule matches it: those that only read, and
 * `remember`, which writes only the person's own memory (they see and edit it). A rule still wins.
 */
const runsUnasked = (name: BuiltinToolName) => BUILTIN_READ_ONLY[name] || name === 'remember';

export const isBuiltinName = (name: string): name is BuiltinToolName =>
  (BuiltinToolNames as readonly string[]).includes(name);

/** `builtin:{name}` → the name, when it is a built-in. */
export function builtinNameOf(ref: string): BuiltinToolName | undefined {
  const name = ref.startsWith('builtin:') ? ref.slice('builtin:'.length) : '';
  return isBuiltinName(name) ? name : undefined;
}

/** Why an answer is not offered a built-in the santito lists, or null when it is. */
export function unavailableReason(
  s: ToolsState,
  name: BuiltinToolName,
  policy: StoredPolicy,
  found: { images: boolean },
  context?: BuiltinContext,
): 'not_configured' | 'no_knowledge' | 'no_files' | null {
  if (name === 'web_search' && !policy.webSearch) return 'not_configured';
  if (name === 'code_interpreter') {
    if (!s.ctx.config.CODE_INTERPRETER_URL) return 'not_configured';
    if (context && !context.files) return 'no_files';
  }
  if (name === 'generate_image') {
    if (!found.images) return 'not_configured';
    if (context && (!context.files || !context.ledger)) return 'no_files';
  }
  if (
    name === 'knowledge_search' &&
    context &&
    !context.knowledge.some((k) => k.kind === KNOWLEDGE_SOURCE_REF_KIND)
  ) {
    return 'no_knowledge';
  }
  return null;
}

/** A built-in as an answer offers it. */
export interface BuiltinOffer {
  name: BuiltinToolName;
  ref: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  decision: ReturnType<typeof decide>;
}

/** The built-ins `refs` name that this answer may call: available, and not denied by the policy. */
export function builtinOffers(
  s: ToolsState,
  refs: readonly string[],
  policy: StoredPolicy,
  context: BuiltinContext,
): BuiltinOffer[] {
  const offers: BuiltinOffer[] = [];
  for (const name of BuiltinToolNames) {
    const ref = `builtin:${name}`;
    // `remember` comes with the person's memory, whatever tools the santito was given.
    const wanted = name === 'remember' ? !!context.remember : refs.includes(ref);
    if (!wanted || unavailableReason(s, name, policy, { images: !!context.images }, context)) {
      continue;
    }
    const decision = decide(policy.rules, ref, runsUnasked(name));
    if (decision === 'deny') continue;
    offers.push({ name, ref, decision, ...DEFINITIONS[name] });
  }
  return offers;
}

/** The number of `c` among the answer's citations, adding it when it is new (same address, same number). */
function numberOf(cited: readonly Citation[], added: Citation[], c: Citation): number {
  const at = [...cited, ...added].findIndex((x) => x.url === c.url);
  if (at >= 0) return at + 1;
  added.push(c);
  return cited.length + added.length;
}

const stringInput = (input: Record<string, unknown>, key: string): string | undefined => {
  const v = input[key];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

const failed = (text: string): ToolOutput => ({ text, isError: true });

/** What the model reads for an address that could not be reached; any other problem is a refusal. */
const ADDRESS_WORDS: Partial<Record<NonNullable<ReturnType<typeof addressProblemOf>>, string>> = {
  timeout: 'The page or service did not answer in time.',
  unresolvable: 'That host name does not resolve.',
  refused: 'The server refused the connection.',
};

/**
 * Runs one built-in call. What it finds is numbered after `cited` (the answer's sources so far)
 * and returned as `citations` to add; failures come back as errors the model can read.
 */
export async function runBuiltin(
  s: ToolsState,
  name: BuiltinToolName,
  context: BuiltinContext,
  input: Record<string, unknown>,
  signal: AbortSignal,
  cited: readonly Citation[],
  policy: () => Promise<StoredPolicy>,
): Promise<ToolOutput> {
  const added: Citation[] = [];
  const out = (text: string): ToolOutput => ({
    text: capOutput(text),
    isError: false,
    ...(added.length > 0 ? { citations: added } : {}),
  });
  try {
    if (name === 'web_search') {
      const query = stringInput(input, 'query');
      if (!query) return failed('Give a `query` to search for.');
      const settings = (await policy()).webSearch;
      if (!settings) return failed('Web search is not set up for this organisation.');
      const key = settings.apiKeyEnc
        ? s.box.open(settings.apiKeyEnc, webSearchKeyBinding(context.domainId))
        : null;
      const results = await searchWeb(s.guard.fetch, settings, key, query, signal);
      if (results.length === 0) return out(`No results for "${query}".`);
      const lines = results.map((r) => {
        const n = numberOf(cited, added, { title: r.title, url: r.url, sourceId: 'web' });
        return `[${n}] ${r.title}\n${r.url}\n${r.snippet}`;
      });
      return out(`Results for "${query}":\n\n${lines.join('\n\n')}`);
    }
    if (name === 'fetch_page') {
      const url = stringInput(input, 'url');
      if (!url) return failed('Give the `url` of the page to read.');
      const page = await fetchPage(s.guard.fetch, url, signal, (html, at) =>
        s.ctx.services.knowledge.ingest.extractor.article(context.domainId, html, at),
      );
      const n = numberOf(cited, added, { title: page.title, url: page.url, sourceId: 'web' });
      const note = page.cut ? '\n\n[The page is longer; only its beginning was read.]' : '';
      return out(
        `[${n}] ${page.title}\n${page.url}\n\n${page.markdown || '(The page has no readable text.)'}${note}`,
      );
    }
    if (name === 'generate_image') {
      const prompt = stringInput(input, 'prompt');
      if (!prompt) return failed('Give a `prompt` describing the image.');
      if (prompt.length > PROMPT_MAX) return failed(`The prompt is longer than ${PROMPT_MAX} characters.`);
      const size = IMAGE_SIZES.find((x) => x === input.size);
      if (input.size !== undefined && !size)
        return failed(`\`size\` must be one of ${IMAGE_SIZES.join(', ')}.`);
      if (!context.files || !context.ledger) return failed('Images cannot be made here.');
      return await drawImage(
        s.ctx,
        context.ledger,
        context.files,
        { prompt, ...(size ? { size } : {}) },
        signal,
      );
    }
    if (name === 'code_interpreter') {
      const code = typeof input.code === 'string' ? input.code : '';
      const lang = stringInput(input, 'lang') ?? 'py';
      if (!code.trim()) return failed('Give the `code` to run.');
      if (code.length > BuiltinLimits.codeMax)
        return failed(`The code is longer than ${BuiltinLimits.codeMax} characters.`);
      if (!(CODE_LANGUAGES as readonly string[]).includes(lang)) {
        return failed(`\`lang\` must be one of ${CODE_LANGUAGES.join(', ')}.`);
      }
      const { CODE_INTERPRETER_URL: url, CODE_INTERPRETER_API_KEY: apiKey, UPLOAD_MAX_BYTES } = s.ctx.config;
      if (!url || !context.files) return failed('The code interpreter is not available here.');
      const args = Array.isArray(input.args)
        ? input.args.filter((a): a is string => typeof a === 'string')
        : [];
      return await runCode(
        { url, apiKey: apiKey ?? '', userId: context.userId ?? '', entityId: context.chatId ?? '' },
        context.files,
        { lang, code, args },
        UPLOAD_MAX_BYTES,
        signal,
      );
    }
    if (name === 'remember') {
      const parsed = MemoryInputSchema.safeParse({ text: typeof input.text === 'string' ? input.text : '' });
      if (!parsed.success) {
        return failed(`Give the \`text\` to remember, at most ${MemoryLimits.textMax} characters.`);
      }
      if (!context.remember) return failed('Memory is not available in this chat.');
      // Refusals (memory turned off since, the person's limit reached) come back in their words.
      const saved = await s.ctx.services.memory.save(context.remember, parsed.data.text, 'assistant');
      return out(
        `Saved to the person's memories: "${saved.text}". They can see, edit or delete it in Settings → Memory.`,
      );
    }
    const query = stringInput(input, 'query');
    if (!query) return failed('Give a `query` to look for.');
    const found = await knowledgePassages(
      s.ctx,
      context.domainId,
      context.knowledge,
      query,
      BuiltinLimits.knowledgePassages,
    );
    if (found.passages.length === 0) return out(`Nothing in the knowledge sources matches "${query}".`);
    // The passages number their documents from 1: renumbered after the answer's other sources.
    const global = found.citations.map((c) => numberOf(cited, added, c));
    const passages = found.passages.map((p) =>
      p.replace(/^\[(\d+)\]/, (_, n: string) => `[${global[Number(n) - 1] ?? n}]`),
    );
    return out(passages.join('\n\n'));
  } catch (err) {
    if (signal.aborted) throw err;
    if (
      err instanceof SearchFailed ||
      err instanceof PageUnreadable ||
      err instanceof CodeApiFailed ||
      // A budget without room, a price missing: the person's words for it.
      err instanceof AppError
    ) {
      return failed(err.message);
    }
    const problem = addressProblemOf(err);
    if (problem)
      return failed(ADDRESS_WORDS[problem] ?? `That address may not be reached from here (${problem}).`);
    return failed(`The call failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
