import type { ChatParams, ProviderKind } from '@assistente/contracts';
import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai';
import type { AttachmentForModel, ContextMessage } from '../chats/index.ts';

/** Text types whose bytes go to the model inline, as text. */
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'application/json']);
/** Image types every supported provider accepts as image parts. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Providers whose chat APIs read PDF files. */
const PDF_KINDS = new Set<ProviderKind>(['openai', 'anthropic', 'google']);

/** Largest text file inlined (characters); the rest is cut with a note. */
const MAX_INLINE_CHARS = 200_000;

/** The system prompt: the santito's instructions, then the chat's own extra instructions. */
export function systemPrompt(
  santitoInstructions: string | undefined,
  params: ChatParams | undefined,
): string | undefined {
  const parts = [santitoInstructions?.trim(), params?.instructions?.trim()].filter((p): p is string =>
    Boolean(p),
  );
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function attachmentParts(
  files: AttachmentForModel[],
  kind: ProviderKind,
): Array<TextPart | ImagePart | FilePart> {
  const parts: Array<TextPart | ImagePart | FilePart> = [];
  for (const f of files) {
    const type = f.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (IMAGE_TYPES.has(type)) {
      parts.push({ type: 'image', image: new Uint8Array(f.data), mediaType: type });
    } else if (TEXT_TYPES.has(type)) {
      let text = f.data.toString('utf8');
      if (text.length > MAX_INLINE_CHARS)
        text = `${text.slice(0, MAX_INLINE_CHARS)}\n[… cut: the file is longer]`;
      parts.push({ type: 'text', text: `Attached file "${f.name}" (${type}):\n\n${text}` });
    } else if (type === 'application/pdf' && PDF_KINDS.has(kind)) {
      parts.push({ type: 'file', data: new Uint8Array(f.data), mediaType: type, filename: f.name });
    } else {
      // Say so rather than drop it silently: the model can tell the user it could not read the file.
      parts.push({
        type: 'text',
        text: `[The user attached "${f.name}" (${type}), which this model cannot read.]`,
      });
    }
  }
  return parts;
}

/**
 * The conversation for the model: the branch root → leaf. User messages carry their attachments
 * (images as image parts, text files inlined, PDFs as files where the provider reads them);
 * empty or failed answers are left out so the model sees a clean alternation.
 */
export function modelMessages(
  branch: ContextMessage[],
  files: ReadonlyMap<string, AttachmentForModel>,
  kind: ProviderKind,
): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of branch) {
    if (m.role === 'assistant') {
      if (m.content.trim() === '') continue;
      out.push({ role: 'assistant', content: m.content });
      continue;
    }
    const attached = m.attachmentIds.flatMap((id) => {
      const f = files.get(id);
      return f ? [f] : [];
    });
    if (attached.length === 0) {
      out.push({ role: 'user', content: m.content });
      continue;
    }
    const parts: Array<TextPart | ImagePart | FilePart> = [];
    if (m.content.trim() !== '') parts.push({ type: 'text', text: m.content });
    parts.push(...attachmentParts(attached, kind));
    out.push({ role: 'user', content: parts });
  }
  return out;
}
