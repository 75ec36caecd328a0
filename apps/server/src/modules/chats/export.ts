import {
  type Chat,
  type ChatExport,
  type Locale,
  type Message,
  modelDisplayName,
  providerOf,
} from '@assistente/contracts';
import { EXPORT_TEXTS } from './export-texts.ts';

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

/**
 * Markdown of one branch, labelled in the reader's language; message texts are Markdown already.
 * Answers name their model as people read it (`providerLabels`: provider id → the provider's name).
 */
export function toMarkdownExport(
  chat: Chat,
  branch: readonly Message[],
  now: Date,
  locale: Locale,
  providerLabels: ReadonlyMap<string, string> = new Map(),
): string {
  const t = EXPORT_TEXTS[locale];
  const model = (id: string) => modelDisplayName(id, providerLabels.get(providerOf(id)));
  const out = [`# ${chat.title.trim() || t.untitled}`, '', `_${t.exportedAt(now.toISOString())}_`, ''];
  for (const m of branch) {
    const who = m.role === 'user' ? t.user : `${t.assistant}${m.model ? ` (${model(m.model)})` : ''}`;
    const note = m.status === 'complete' ? '' : ` _(${t.status[m.status]})_`;
    out.push(`## ${who}${note}`, '', `_${m.createdAt}_`, '', m.content.trimEnd(), '');
    for (const a of m.attachments ?? []) out.push(`- 📎 ${a.name} (${a.contentType}, ${a.size} bytes)`);
    if (m.attachments?.length) out.push('');
    if (m.citations?.length) {
      out.push(`**${t.sources}**`, '');
      m.citations.forEach((c, i) => {
        out.push(
          `${i + 1}. [${c.title.replace(/[[\]]/g, '')}](${c.url.replace(/[()\s]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`,
        );
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
