/**
 * A streaming reader of the one JSON shape both exports share: a top-level array of conversations
 * (docs/ARCHITECTURE.md#chat-import). It finds where each element starts and ends by scanning the
 * bytes (the structural characters `[]{}",\` are ASCII, never part of a UTF-8 sequence), and hands
 * each element's bytes on for `JSON.parse`: memory holds one conversation, never the document,
 * however large the document is. Parsing what it yields still checks the JSON itself.
 */

/** One element of the array: its bytes, or only its size when it was over the element limit. */
export type ArrayElement = { bytes: Buffer; size: number } | { bytes: null; size: number };

/** Why a document could not be read as a JSON array. */
export class JsonShapeError extends Error {
  override name = 'JsonShapeError';
  constructor(
    readonly reason: 'not_array' | 'malformed' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * The elements of the top-level JSON array read from `source`. Throws `JsonShapeError`: the
 * document is not an array, ends early or is unbalanced, or passes `maxDocumentBytes`. An element
 * over `maxElementBytes` is yielded without its bytes (and not kept while scanning).
 */
export async function* arrayElements(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  limits: { maxDocumentBytes: number; maxElementBytes: number },
): AsyncGenerator<ArrayElement> {
  let total = 0;
  /** 0 before the array, 1 inside it between elements, > 1 inside an element. */
  let depth = 0;
  let started = false;
  let ended = false;
  let inString = false;
  let escaped = false;
  /** The element being read: a primitive (no brackets) ends at the next `,` or `]`. */
  let inElement = false;
  let primitive = false;
  let pieces: Buffer[] = [];
  let size = 0;
  let oversized = false;
  let bom = 0;

  const keep = (chunk: Buffer, from: number, to: number) => {
    size += to - from;
    if (oversized) return;
    if (size > limits.maxElementBytes) {
      oversized = true;
      pieces = [];
      return;
    }
    pieces.push(chunk.subarray(from, to));
  };
  const take = (): ArrayElement => {
    const element: ArrayElement = oversized
      ? { bytes: null, size }
      : { bytes: pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces), size };
    pieces = [];
    size = 0;
    oversized = false;
    inElement = false;
    primitive = false;
    return element;
  };

  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    total += chunk.length;
    if (total > limits.maxDocumentBytes) {
      throw new JsonShapeError('too_large', `larger than ${limits.maxDocumentBytes} bytes`);
    }
    const out: ArrayElement[] = [];
    let from = inElement ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (primitive && depth === 1) {
            keep(chunk, from, i + 1);
            out.push(take());
            from = -1;
          }
        }
        continue;
      }
      if (!started) {
        // A UTF-8 byte order mark, then whitespace, then the array.
        if (total - chunk.length + i === bom && c === [0xef, 0xbb, 0xbf][bom]) {
          bom++;
          continue;
        }
        if (WS.has(c)) continue;
        if (c !== OPEN_BRACKET) throw new JsonShapeError('not_array', 'not a JSON array');
        started = true;
        depth = 1;
        continue;
      }
      if (ended) {
        if (!WS.has(c)) throw new JsonShapeError('malformed', 'unexpected content after the array');
        continue;
      }
      if (!inElement) {
        if (WS.has(c) || c === COMMA) continue;
        if (c === CLOSE_BRACKET) {
          ended = true;
          depth = 0;
          continue;
        }
        inElement = true;
        from = i;
        if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else {
          primitive = true;
          if (c === QUOTE) inString = true;
        }
        continue;
      }
      if (primitive) {
        // A number or literal ends at the delimiter (not part of it).
        if (c === COMMA || c === CLOSE_BRACKET || WS.has(c)) {
          keep(chunk, from, i);
          out.push(take());
          from = -1;
          if (c === CLOSE_BRACKET) {
            ended = true;
            depth = 0;
          }
        }
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 1) {
          keep(chunk, from, i + 1);
          out.push(take());
          from = -1;
        }
      }
    }
    if (inElement && from >= 0) keep(chunk, from, chunk.length);
    for (const element of out) yield element;
  }
  if (!started) throw new JsonShapeError('not_array', 'empty, not a JSON array');
  if (!ended) throw new JsonShapeError('malformed', 'the JSON array does not end');
}
