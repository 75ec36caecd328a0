/** A piece of a document, with the headings it sits under. */
export interface Chunk {
  /** "Guide › Install": the heading path above the text. */
  heading: string;
  text: string;
}

export interface ChunkOptions {
  /** Target size in tokens (≈ 4 characters each, close enough for Latin scripts). */
  maxTokens?: number;
  /** Tokens of the previous chunk repeated at the start of the next one, within a section. */
  overlapTokens?: number;
}

const CHARS_PER_TOKEN = 4;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Token estimate used for chunk sizes (no model tokenizer: sizes only need to be near). */
export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

interface Section {
  path: string[];
  paragraphs: string[];
}

/** Markdown-ish text (extractors write headings as `#`) → sections under their heading path. */
function sections(text: string): Section[] {
  const out: Section[] = [];
  const path: string[] = [];
  let current: Section = { path: [], paragraphs: [] };
  let paragraph: string[] = [];
  let fenced = false;
  const flush = () => {
    const p = paragraph.join('\n').trim();
    if (p) current.paragraphs.push(p);
    paragraph = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : HEADING.exec(line);
    if (h?.[1] && h[2]) {
      flush();
      if (current.paragraphs.length > 0) out.push(current);
      path.length = Math.min(path.length, h[1].length - 1);
      path[h[1].length - 1] = h[2];
      current = { path: path.filter(Boolean), paragraphs: [] };
      continue;
    }
    // A code block is kept whole as one paragraph: blank lines inside it do not split it.
    if (!fenced && line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  if (current.paragraphs.length > 0) out.push(current);
  return out;
}

/** A paragraph longer than `max` characters, cut at sentence or word ends where possible. */
function split(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const parts: string[] = [];
  let rest = paragraph;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('\n'), window.lastIndexOf('? '));
    const at = cut > max / 2 ? cut + 1 : window.lastIndexOf(' ') > max / 2 ? window.lastIndexOf(' ') : max;
    parts.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** The end of `text`, at most `max` characters, starting at a word. */
function tailOf(text: string, max: number): string {
  if (max <= 0) return '';
  if (text.length <= max) return text;
  const cut = text.slice(-max);
  const space = cut.search(/\s/);
  return space >= 0 ? cut.slice(space).trim() : '';
}

/**
 * Heading-aware chunks: a chunk never spans two sections, carries its heading path, holds about
 * `maxTokens`, and repeats the end of the previous chunk of its section so a sentence cut at a
 * boundary is still found whole.
 */
export function chunkText(text: string, opts: ChunkOptions = {}): Chunk[] {
  const max = (opts.maxTokens ?? 800) * CHARS_PER_TOKEN;
  const overlap = (opts.overlapTokens ?? 100) * CHARS_PER_TOKEN;
  const chunks: Chunk[] = [];
  for (const section of sections(text)) {
    const heading = section.path.join(' › ');
    const pieces = section.paragraphs.flatMap((p) => split(p, max));
    let current: string[] = [];
    let size = 0;
    let fresh = 0;
    const emit = () => {
      if (fresh === 0) return;
      const text = current.join('\n\n');
      chunks.push({ heading, text });
      // Carry the chunk's last `overlap` characters (from a word start) into the next chunk.
      const tail = tailOf(text, overlap);
      current = tail ? [tail] : [];
      size = tail.length + 2;
      fresh = 0;
    };
    for (const piece of pieces) {
      if (size + piece.length > max && fresh > 0) emit();
      if (size + piece.length > max) {
        current = [];
        size = 0;
      }
      current.push(piece);
      size += piece.length + 2;
      fresh++;
    }
    emit();
  }
  return chunks;
}
