import {
  type Chat,
  type ChatExport,
  type ChatExportQuery,
  type Locale,
  type Message,
  modelDisplayName,
  providerOf,
} from '@assistente/contracts';
import { callerLocale, type LocaleHints } from '../accounts/locale.ts';
import { toChat } from './dto.ts';
import { messageNotFound } from './errors.ts';
import { EXPORT_TEXTS } from './export-texts.ts';
import type { ChatCaller } from './policy.ts';
import { type ChatsState, ownChat, withFiles } from './state.ts';

/**
 * The chat as a download: Markdown (one branch, labelled in the caller's language) or JSON
 * (every message). The branch is the one ending at `query.leaf`, else the newest message's;
 * a `leaf` that is not a message of this chat is 404.
 */
export async function exportChat(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  query: ChatExportQuery,
  hints: LocaleHints,
  /** Provider id → its name, so answers name their model as people read it. */
  providerLabels?: ReadonlyMap<string, string>,
): Promise<{ fileName: string; contentType: string; body: string }> {
  const chat = toChat(await ownChat(s, caller, chatId));
  const rows = await s.store.allMessages(caller, chatId);
  if (query.leaf !== undefined && !rows.some((r) => r.id === query.leaf)) throw messageNotFound();
  const messages = await withFiles(s, caller, chatId, rows);
  const branch = currentBranch(messages, query.leaf);
  const now = new Date();
  return query.format === 'json'
    ? {
        fileName: exportFileName(chat, 'json'),
        contentType: 'application/json; charset=utf-8',
        body: `${JSON.stringify(toJsonExport(chat, messages, now, branch.at(-1)?.messageId), null, 2)}\n`,
      }
    : {
        fileName: exportFileName(chat, 'md'),
        contentType: 'text/markdown; charset=utf-8',
        body: toMarkdownExport(chat, branch, {
          now,
          locale: callerLocale(caller, hints),
          timeZone: query.timeZone,
          baseUrl: s.ctx.config.publicUrl,
          ...(providerLabels ? { providerLabels } : {}),
        }),
      };
}

/** `Title of the chat.md`: the title made safe for every file system, or "chat". */
export function exportFileName(chat: Chat, ext: 'md' | 'json'): string {
  const base = chat.title
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 100)
    .trim();
  return `${base || 'chat'}.${ext}`;
}

/**
 * The branch to export, root → tip. It runs through `leafId` (the last message on the user's
 * screen) or, without one, the newest message; below that message it goes on to its newest
 * descendant, as the web shows a branch, so an answer that arrived meanwhile is not cut off.
 * `messages` are oldest first, as stored. Empty when there is no such message.
 */
export function currentBranch(messages: readonly Message[], leafId?: string): Message[] {
  const start = leafId === undefined ? messages.at(-1) : messages.find((m) => m.messageId === leafId);
  if (!start) return [];
  // Children are newer than their parents: one pass in order finds every descendant, the newest last.
  const below = new Set([start.messageId]);
  let tip = start;
  for (const m of messages) {
    if (m.parentId && below.has(m.parentId) && !below.has(m.messageId)) {
      below.add(m.messageId);
      tip = m;
    }
  }
  const byId = new Map(messages.map((m) => [m.messageId, m]));
  const branch: Message[] = [];
  const seen = new Set<string>();
  let at: Message | undefined = tip;
  while (at && !seen.has(at.messageId)) {
    seen.add(at.messageId);
    branch.push(at);
    at = at.parentId ? byId.get(at.parentId) : undefined;
  }
  return branch.reverse();
}

/** How a Markdown export is written: for whom (language, time zone) and from where (absolute links). */
export interface MarkdownExportOptions {
  now: Date;
  locale: Locale;
  /** The reader's IANA time zone; UTC without one. */
  timeZone?: string | undefined;
  /** The server's public URL: a file read later, elsewhere, has no page to resolve `/api/…` against. */
  baseUrl: string;
  /** Provider id → the provider's name, so answers name their model as people read it. */
  providerLabels?: ReadonlyMap<string, string>;
}

/** A link of the export: absolute, with what would end a Markdown link's destination escaped. */
function exportLink(url: string, baseUrl: string): string {
  const absolute = url.startsWith('/') && !url.startsWith('//') ? `${baseUrl}${url}` : url;
  return absolute.replace(
    /[()\s]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Markdown of one branch, for its reader (language, time zone); message texts are Markdown already. */
export function toMarkdownExport(
  chat: Chat,
  branch: readonly Message[],
  options: MarkdownExportOptions,
): string {
  const { locale, baseUrl, providerLabels = new Map<string, string>() } = options;
  const timeZone = options.timeZone ?? 'UTC';
  const t = EXPORT_TEXTS[locale];
  const model = (id: string) => modelDisplayName(id, providerLabels.get(providerOf(id)));
  const stamp = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const exportedAt = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone });
  const out = [
    `# ${chat.title.trim() || t.untitled}`,
    '',
    `_${t.exportedAt(`${exportedAt.format(options.now)} (${timeZone})`)}_`,
    '',
  ];
  for (const m of branch) {
    const who = m.role === 'user' ? t.user : `${t.assistant}${m.model ? ` (${model(m.model)})` : ''}`;
    const note = m.status === 'complete' ? '' : ` _(${t.status[m.status]})_`;
    out.push(`## ${who}${note}`, '', `_${stamp.format(new Date(m.createdAt))}_`, '', m.content.trimEnd(), '');
    for (const a of m.attachments ?? []) out.push(`- 📎 ${a.name} (${a.contentType}, ${a.size} bytes)`);
    if (m.attachments?.length) out.push('');
    // Files the answer's tools made (charts, images): links to the chat's attachments.
    const made = (m.parts ?? []).flatMap((p) => (p.type === 'tool' ? (p.files ?? []) : []));
    if (made.length) {
      out.push(`**${t.madeFiles}**`, '');
      for (const f of made) out.push(`- [${f.name.replace(/[[\]]/g, '')}](${exportLink(f.url, baseUrl)})`);
      out.push('');
    }
    if (m.citations?.length) {
      out.push(`**${t.sources}**`, '');
      m.citations.forEach((c, i) => {
        out.push(`${i + 1}. [${c.title.replace(/[[\]]/g, '')}](${exportLink(c.url, baseUrl)})`);
      });
      out.push('');
    }
    if (m.error) out.push(`> ${m.error}`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Every message (all branches), with the tip of the branch the user was reading. */
export function toJsonExport(
  chat: Chat,
  messages: Message[],
  now: Date,
  leafId: string | undefined,
): ChatExport {
  return {
    version: 1,
    exportedAt: now.toISOString(),
    chat,
    ...(leafId ? { leafId } : {}),
    messages,
  };
}
