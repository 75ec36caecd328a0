import type { Chat, ChatExport, Message } from '@assistente/contracts';

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

/** The branch the user last saw: from the newest message up through its parents. */
export function currentBranch(messages: readonly Message[]): Message[] {
  const byId = new Map(messages.map((m) => [m.messageId, m]));
  const branch: Message[] = [];
  const seen = new Set<string>();
  let at = messages.at(-1);
  while (at && !seen.has(at.messageId)) {
    seen.add(at.messageId);
    branch.push(at);
    at = at.parentId ? byId.get(at.parentId) : undefined;
  }
  return branch.reverse();
}

const STATUS_NOTE: Record<Message['status'], string> = {
  complete: '',
  streaming: ' _(incomplete)_',
  stopped: ' _(stopped)_',
  error: ' _(ended with an error)_',
};

/** Markdown of the current branch; message texts are Markdown already and stay as they are. */
export function toMarkdownExport(chat: Chat, messages: readonly Message[], now: Date): string {
  const out = [`# ${chat.title.trim() || 'Chat'}`, '', `_Exported ${now.toISOString()}_`, ''];
  for (const m of currentBranch(messages)) {
    const who = m.role === 'user' ? 'You' : `Assistant${m.model ? ` (${m.model})` : ''}`;
    out.push(`## ${who}${STATUS_NOTE[m.status]}`, '', `_${m.createdAt}_`, '', m.content.trimEnd(), '');
    for (const a of m.attachments ?? []) out.push(`- 📎 ${a.name} (${a.contentType}, ${a.size} bytes)`);
    if (m.attachments?.length) out.push('');
    if (m.error) out.push(`> ${m.error}`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function toJsonExport(chat: Chat, messages: Message[], now: Date): ChatExport {
  return { version: 1, exportedAt: now.toISOString(), chat, messages };
}
