/** Link schemes model output may use; anything else (javascript:, data:, vbscript:, file:…) is dropped. */
const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers skip these inside a URL, so must we
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const HAS_IGNORED = /[\u0000-\u0020\u007f-\u009f]/;

/** The scheme a browser would see (it ignores whitespace and control characters), lowercased; null when relative. */
export function urlScheme(url: string): string | null {
  const cleaned = url.replace(IGNORED_IN_URL, '');
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(cleaned);
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * The URL rule of rendered Markdown: links keep http(s), mailto, tel and relative URLs; images only
 * absolute http(s) (they load only after a click). Everything else loses its URL (null).
 */
export function safeUrl(url: string, key: string): string | null {
  const value = url.trim();
  if (value === '') return null;
  const scheme = urlScheme(value);
  if (key === 'src') return scheme === 'http' || scheme === 'https' ? value : null;
  if (scheme === null) {
    // A "relative" URL with control characters could still be read as a scheme by some parser.
    return HAS_IGNORED.test(value) ? null : value;
  }
  return LINK_SCHEMES.has(scheme) ? value : null;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Whether a text has fenced code (the highlighter is loaded for it). */
export function hasFencedCode(text: string): boolean {
  return /(^|\n) {0,3}(```|~~~)/.test(text);
}

/** Whether a text looks like it has TeX math (KaTeX is loaded for it). */
export function hasMath(text: string): boolean {
  return /\$\$[\s\S]+?\$\$|\\\[[\s\S]+?\\\]|\\\([^\n]+?\\\)|(^|[^\\$\w])\$[^\s$][^$\n]*?[^\s\\$]\$(?!\w)|(^|[^\\$\w])\$[^\s$]\$(?!\w)/.test(
    text,
  );
}

/**
 * Turns `\[…\]` and `\(…\)` (what many models write) into `$$…$$` and `$…$` (what remark-math
 * reads), outside code.
 */
export function normalizeMathDelimiters(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  const out: string[] = [];
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length === 0) return;
    out.push(convertMath(chunk.join('\n')));
    chunk = [];
  };
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null && marker) {
      flush();
      fence = marker;
      out.push(line);
    } else if (fence !== null) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
    } else {
      chunk.push(line);
    }
  }
  flush();
  return out.join('\n');
}

function convertMath(text: string): string {
  // Inline code spans stay as they are.
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\\\[([\s\S]+?)\\\]/g, (_m, body: string) => `$$${body}$$`)
            .replace(/\\\(([^\n]+?)\\\)/g, (_m, body: string) => `$${body}$`),
    )
    .join('');
}

/**
 * Splits a streaming answer into Markdown blocks at blank lines outside code fences and math
 * blocks, so finished blocks are parsed once and only the last one re-renders per frame.
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let math = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = FENCE.exec(line)?.[1];
    if (fence === null && !math && marker) fence = marker;
    else if (
      fence !== null &&
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    )
      fence = null;
    else if (fence === null && line.trim() === '$$') math = !math;
    current.push(line);
    const next = lines[i + 1];
    const boundary =
      fence === null &&
      !math &&
      line.trim() === '' &&
      next !== undefined &&
      next.trim() !== '' &&
      !/^\s/.test(next);
    if (boundary) {
      blocks.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
