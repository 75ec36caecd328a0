import type { ChatImportFormat, ChatImportItem } from '@assistente/contracts';

/**
 * The ChatGPT and Claude export formats, each read into one neutral shape: a conversation with a
 * tree of messages (docs/ARCHITECTURE.md#chat-import). Only what Assistente shows is kept: the
 * person's and the assistant's text. Tool calls and their output, browsing, reasoning, system and
 * hidden messages are left out, and their children hang from the nearest message kept, so edits and
 * regenerations stay siblings under one parent as Assistente stores them. Images and files are
 * not imported: a note such as "[image]" marks where they were.
 */

export interface ImportedMessage {
  /** The source's id: unique in the conversation. */
  key: string;
  /** The kept message it follows; null for a first message. */
  parentKey: string | null;
  role: 'user' | 'assistant';
  content: string;
  /** As the source dates it; null when it does not. */
  createdAt: Date | null;
}

export interface ImportedConversation {
  /** `chatgpt:{id}` / `claude:{uuid}`: the chat's `import_source`, what makes importing idempotent. */
  source: string;
  /** The source's title; empty when it had none. */
  title: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** Parents before their children. */
  messages: ImportedMessage[];
}

export type FailedReason = Exclude<NonNullable<ChatImportItem['reasonCode']>, 'already_imported'>;

export type ParsedConversation =
  | { ok: true; conversation: ImportedConversation }
  | { ok: false; title: string; reasonCode: FailedReason; reason: string };

const fail = (title: string, reasonCode: FailedReason, reason: string): ParsedConversation => ({
  ok: false,
  title,
  reasonCode,
  reason,
});

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Which export one parsed element of the array is, if either. */
export function detectFormat(element: unknown): ChatImportFormat | null {
  if (!isObject(element)) return null;
  if (isObject(element.mapping)) return 'chatgpt';
  if (Array.isArray(element.chat_messages)) return 'claude';
  return null;
}

/** Reads one element of the export's array as `format`, within `maxMessages` kept messages. */
export function parseConversation(
  format: ChatImportFormat,
  element: unknown,
  maxMessages: number,
): ParsedConversation {
  return format === 'chatgpt' ? parseChatGpt(element, maxMessages) : parseClaude(element, maxMessages);
}

/** A date from epoch seconds (ChatGPT, floats) or an ISO string (Claude); null when neither. */
function dateOf(v: unknown): Date | null {
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = v * 1000;
  else if (typeof v === 'string' && v !== '') ms = Date.parse(v);
  else return null;
  // Before 2000 or after 2100 is no chat's date: a unit mistake or garbage.
  if (!Number.isFinite(ms) || ms < 946_684_800_000 || ms > 4_102_444_800_000) return null;
  return new Date(Math.round(ms));
}

// ---- ChatGPT: conversations.json (or its shards) ----

/** Content types whose text is the conversation as the person saw it; anything else is tool traffic. */
const CHATGPT_TEXT_TYPES = new Set(['text', 'multimodal_text']);

/** Parts of a `text` / `multimodal_text` content: strings, and objects for images, audio, files. */
function chatGptText(content: Json): string {
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const out: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.trim() !== '') out.push(part);
    } else if (isObject(part)) {
      const kind = str(part.content_type);
      if (kind === 'image_asset_pointer') out.push('[image]');
      else if (kind.startsWith('audio')) {
        // Voice chats: the transcription is the text; the audio itself stays behind.
        if (kind === 'audio_transcription' && str(part.text).trim() !== '') out.push(str(part.text));
      } else if (typeof part.text === 'string' && part.text.trim() !== '') out.push(part.text);
      else out.push('[file]');
    }
  }
  return out.join('\n\n').trim();
}

interface ChatGptNode {
  id: string;
  parent: string | null;
  message: Json | null;
}

/** The text a ChatGPT node shows in the conversation, or null when it is not kept. */
function keptChatGpt(message: Json | null): { role: 'user' | 'assistant'; content: string } | null {
  if (!message) return null;
  const author = isObject(message.author) ? message.author : {};
  const role = author.role;
  if (role !== 'user' && role !== 'assistant') return null;
  const metadata = isObject(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) return null;
  // An assistant message addressed to a tool (`browser`, `python`, …) is a call, not an answer.
  if (role === 'assistant' && message.recipient !== undefined && message.recipient !== 'all') return null;
  const content = isObject(message.content) ? message.content : {};
  if (!CHATGPT_TEXT_TYPES.has(str(content.content_type))) return null;
  const text = chatGptText(content);
  return text === '' ? null : { role, content: text };
}

function parseChatGpt(element: unknown, maxMessages: number): ParsedConversation {
  if (!isObject(element)) return fail('', 'invalid', 'Not a conversation');
  const title = str(element.title).trim();
  const id = str(element.conversation_id) || str(element.id);
  if (!id) return fail(title, 'invalid', 'The conversation has no id');
  if (!isObject(element.mapping)) return fail(title, 'invalid', 'The conversation has no messages (mapping)');

  const nodes = new Map<string, ChatGptNode>();
  for (const [key, raw] of Object.entries(element.mapping)) {
    if (!isObject(raw)) continue;
    const nodeId = str(raw.id) || key;
    nodes.set(nodeId, {
      id: nodeId,
      parent: typeof raw.parent === 'string' ? raw.parent : null,
      message: isObject(raw.message) ? raw.message : null,
    });
  }
  const messages = keptTree(
    [...nodes.values()].map((n) => {
      const kept = keptChatGpt(n.message);
      return {
        key: n.id,
        parentKey: n.parent !== null && nodes.has(n.parent) ? n.parent : null,
        kept: kept ? { ...kept, createdAt: dateOf(n.message?.create_time) } : null,
      };
    }),
  );
  return conversationOf(
    {
      source: `chatgpt:${id}`,
      title,
      createdAt: dateOf(element.create_time),
      updatedAt: dateOf(element.update_time),
      messages,
    },
    maxMessages,
  );
}

// ---- Claude: conversations.json ----

/** Claude's parent of a first message. */
const CLAUDE_ROOT = '00000000-0000-4000-8000-000000000000';

function claudeText(message: Json): string {
  const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const texts = blocks.filter((b) => b.type === 'text' && str(b.text).trim() !== '').map((b) => str(b.text));
  let text = (texts.length > 0 ? texts.join('\n\n') : str(message.text)).trim();
  // Files a person attached: their names (and text Claude extracted, which the export does not keep whole) stay behind.
  const files = [
    ...(Array.isArray(message.attachments) ? message.attachments : []),
    ...(Array.isArray(message.files) ? message.files : []),
  ]
    .filter(isObject)
    .map((f) => str(f.file_name).trim())
    .filter((n) => n !== '');
  for (const name of files) text += `${text ? '\n\n' : ''}[file: ${name}]`;
  return text;
}

function parseClaude(element: unknown, maxMessages: number): ParsedConversation {
  if (!isObject(element)) return fail('', 'invalid', 'Not a conversation');
  const title = str(element.name).trim();
  const id = str(element.uuid);
  if (!id) return fail(title, 'invalid', 'The conversation has no uuid');
  if (!Array.isArray(element.chat_messages))
    return fail(title, 'invalid', 'The conversation has no messages');

  const raw = element.chat_messages.filter(isObject);
  const ids = new Set(raw.map((m) => str(m.uuid)).filter((u) => u !== ''));
  // Newer exports name each message's parent (branches); older ones are a chain in order.
  const branched = raw.some((m) => typeof m.parent_message_uuid === 'string');
  let previous: string | null = null;
  const flat = raw.map((m, i) => {
    const key = str(m.uuid) || `#${i}`;
    const parent = str(m.parent_message_uuid);
    const parentKey = branched ? (parent !== CLAUDE_ROOT && ids.has(parent) ? parent : null) : previous;
    previous = key;
    const role: ImportedMessage['role'] | null =
      m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : null;
    const content = role ? claudeText(m) : '';
    return {
      key,
      parentKey,
      kept: role && content !== '' ? { role, content, createdAt: dateOf(m.created_at) } : null,
    };
  });
  return conversationOf(
    {
      source: `claude:${id}`,
      title,
      createdAt: dateOf(element.created_at),
      updatedAt: dateOf(element.updated_at),
      messages: keptTree(flat),
    },
    maxMessages,
  );
}

// ---- Shared ----

interface SourceNode {
  key: string;
  parentKey: string | null;
  kept: Omit<ImportedMessage, 'key' | 'parentKey'> | null;
}

/**
 * The kept nodes as a tree, parents first: a node left out passes its children to its own nearest
 * kept ancestor. A message following one of the same role alone (an answer cut by a tool call it
 * made) is folded into it. Nodes in a parent cycle, unreachable from any root, are dropped.
 */
export function keptTree(nodes: readonly SourceNode[]): ImportedMessage[] {
  const byKey = new Map<string, SourceNode>();
  for (const n of nodes) if (!byKey.has(n.key)) byKey.set(n.key, n);
  const children = new Map<string | null, SourceNode[]>();
  for (const n of byKey.values()) {
    const parent =
      n.parentKey !== null && byKey.has(n.parentKey) && n.parentKey !== n.key ? n.parentKey : null;
    const list = children.get(parent);
    if (list) list.push(n);
    else children.set(parent, [n]);
  }
  // Siblings by their date (those without one keep the source's order), so edits read in order.
  for (const list of children.values()) {
    list.sort((a, b) => (a.kept?.createdAt?.getTime() ?? 0) - (b.kept?.createdAt?.getTime() ?? 0) || 0);
  }

  const out: ImportedMessage[] = [];
  const byOut = new Map<string, ImportedMessage>();
  const keptChildren = new Map<string | null, number>();
  const visited = new Set<string>();
  // Depth first, iteratively (a conversation may be thousands of messages deep).
  const stack: Array<{ node: SourceNode; keptParent: string | null }> = [];
  for (const root of [...(children.get(null) ?? [])].reverse()) stack.push({ node: root, keptParent: null });
  const pending: Array<{ node: SourceNode; keptParent: string | null }> = [];
  while (stack.length > 0) {
    const { node, keptParent } = stack.pop() as { node: SourceNode; keptParent: string | null };
    if (visited.has(node.key)) continue;
    visited.add(node.key);
    let here = keptParent;
    if (node.kept) {
      pending.push({ node, keptParent });
      here = node.key;
    }
    for (const child of [...(children.get(node.key) ?? [])].reverse())
      stack.push({ node: child, keptParent: here });
  }
  for (const { keptParent } of pending) keptChildren.set(keptParent, (keptChildren.get(keptParent) ?? 0) + 1);

  /** Where a folded message's own children now hang. */
  const foldedInto = new Map<string, string>();
  for (const { node, keptParent } of pending) {
    const kept = node.kept as NonNullable<SourceNode['kept']>;
    const parentKey = keptParent === null ? null : (foldedInto.get(keptParent) ?? keptParent);
    const parent = parentKey === null ? undefined : byOut.get(parentKey);
    if (parent && parent.role === kept.role && keptChildren.get(keptParent) === 1) {
      parent.content = `${parent.content}\n\n${kept.content}`;
      foldedInto.set(node.key, parent.key);
      continue;
    }
    const message: ImportedMessage = { key: node.key, parentKey, ...kept };
    out.push(message);
    byOut.set(node.key, message);
  }
  return out;
}

function conversationOf(conversation: ImportedConversation, maxMessages: number): ParsedConversation {
  const { title, messages } = conversation;
  if (messages.length === 0) return fail(title, 'empty', 'The conversation has no messages to import');
  if (messages.length > maxMessages) {
    return fail(title, 'too_many_messages', `The conversation has more than ${maxMessages} messages`);
  }
  return { ok: true, conversation };
}

/**
 * The dates to store, one per message in `messages`' order: the source's own, moved the least so
 * that each is later than its parent and no two are equal (the branch shown and the message
 * pages' order rely on both). A message without a date follows the one before it.
 */
export function timeline(messages: readonly ImportedMessage[], fallback: Date): Date[] {
  const index = new Map(messages.map((m, i) => [m.key, i]));
  // Not before the parent: a child's earliest allowed moment.
  const floor: number[] = [];
  messages.forEach((m, i) => {
    const parent = m.parentKey === null ? undefined : index.get(m.parentKey);
    const parentAt = parent === undefined ? -Infinity : (floor[parent] as number) + 1;
    const own = m.createdAt?.getTime() ?? (i > 0 ? (floor[i - 1] as number) + 1 : fallback.getTime());
    floor.push(Math.max(own, parentAt));
  });
  // Walk in date order (parents sort before children: their floor is lower), making each unique.
  const order = messages
    .map((_, i) => i)
    .sort((a, b) => (floor[a] as number) - (floor[b] as number) || a - b);
  const at: number[] = new Array(messages.length);
  let last = -Infinity;
  for (const i of order) {
    last = Math.max(floor[i] as number, last + 1);
    at[i] = last;
  }
  return at.map((ms) => new Date(ms));
}
