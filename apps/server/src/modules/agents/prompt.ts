import type { AttachmentReading, ChatParams, ProviderKind } from '@assistente/contracts';
import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai';
import type { AttachmentForModel, ContextMessage } from '../chats/index.ts';

/** Text types whose bytes go to the model inline, as text. */
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'application/json']);
/** Image types every supported provider accepts as image parts. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Providers whose chat APIs read PDF files. */
const PDF_KINDS = new Set<ProviderKind>(['openai', 'anthropic', 'google']);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Most of one file's text a model is given: about 50,000 tokens at four characters each. */
export const MAX_INLINE_CHARS = 200_000;

/** A file's media type without parameters, lower case. */
const mediaType = (f: AttachmentForModel) => f.contentType.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Whether the model reads `f` only as text extracted from it: DOCX always, PDF where the provider
 * does not read PDFs or where the text must pass the domain's PII filter (`filtered`).
 */
export function needsExtraction(f: AttachmentForModel, kind: ProviderKind, filtered = false): boolean {
  const type = mediaType(f);
  return type === DOCX || (type === 'application/pdf' && (filtered || !PDF_KINDS.has(kind)));
}

/** What an attachment's text goes through before the model reads it (the domain's PII filter). */
export type TextFilter = (text: string) => string;

/**
 * The text read out of a file for the model (at most the cap of it, and how long it all was), or
 * why none could be.
 */
export type ExtractedText = { text: string; length: number } | { error: string };

/** `text` within the cap, with a note saying where and how much was cut. */
function inline(
  f: AttachmentForModel,
  label: string,
  read: { text: string; length: number },
  readings: AttachmentReading[],
  filter: TextFilter,
): TextPart {
  const cut = read.length > MAX_INLINE_CHARS;
  let body = filter(cut ? read.text.slice(0, MAX_INLINE_CHARS) : read.text);
  if (cut) {
    body = `${body}\n[… cut: only the first ${MAX_INLINE_CHARS.toLocaleString('en')} of ${read.length.toLocaleString('en')} characters of this file were given to you]`;
    readings.push({ attachmentId: f.attachmentId, name: f.name, reading: 'partial' });
  }
  return { type: 'text', text: `${label}:\n\n${body}` };
}

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
  extracted: ReadonlyMap<string, ExtractedText>,
  readings: AttachmentReading[],
  filter: TextFilter,
): Array<TextPart | ImagePart | FilePart> {
  const parts: Array<TextPart | ImagePart | FilePart> = [];
  for (const f of files) {
    const type = mediaType(f);
    const read = extracted.get(f.attachmentId);
    if (IMAGE_TYPES.has(type)) {
      parts.push({ type: 'image', image: new Uint8Array(f.data), mediaType: type });
    } else if (TEXT_TYPES.has(type)) {
      const text = f.data.toString('utf8');
      parts.push(
        inline(f, `Attached file "${f.name}" (${type})`, { text, length: text.length }, readings, filter),
      );
    } else if (type === 'application/pdf' && !read && PDF_KINDS.has(kind)) {
      parts.push({ type: 'file', data: new Uint8Array(f.data), mediaType: type, filename: f.name });
    } else if (read && 'text' in read && read.text.trim()) {
      parts.push(inline(f, `Text read from the attached file "${f.name}" (${type})`, read, readings, filter));
    } else {
      // Say so rather than drop it silently: the model can tell the user it could not read the file.
      const why = read && 'error' in read ? `: ${read.error}` : '';
      parts.push({
        type: 'text',
        text: `[The user attached "${f.name}" (${type}), which this model cannot read${why}.]`,
      });
      readings.push({ attachmentId: f.attachmentId, name: f.name, reading: 'unread' });
    }
  }
  return parts;
}

/**
 * The conversation for the model: the branch root → leaf. User messages carry their attachments
 * (images as image parts, text files inlined, PDFs as files where the provider reads them, and
 * otherwise the text `extracted` from PDFs and DOCX); empty or failed answers are left out so the
 * model sees a clean alternation. `readings` lists the question's files the model reads only in part.
 */
export function modelMessages(
  branch: ContextMessage[],
  files: ReadonlyMap<string, AttachmentForModel>,
  kind: ProviderKind,
  extracted: ReadonlyMap<string, ExtractedText> = new Map(),
  filter: TextFilter = (text) => text,
): { messages: ModelMessage[]; readings: AttachmentReading[] } {
  const out: ModelMessage[] = [];
  let readings: AttachmentReading[] = [];
  for (const m of branch) {
    if (m.role === 'assistant') {
      if (m.content.trim() === '') continue;
      out.push({ role: 'assistant', content: m.content });
      continue;
    }
    // Only the last question's files are reported: earlier ones were reported with their own answer.
    readings = [];
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
    parts.push(...attachmentParts(attached, kind, extracted, readings, filter));
    out.push({ role: 'user', content: parts });
  }
  return { messages: out, readings };
}
