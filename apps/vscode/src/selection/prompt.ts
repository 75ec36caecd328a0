/** A selection is cut to this many characters before it goes into a chat message (frames are ≤ 1 MiB). */
export const MAX_SELECTION_CHARS = 20_000;

export interface SelectionContext {
  fileName: string;
  languageId: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
}

/** A fence longer than any backtick run in the text, so the code cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/**
 * The chat message for a question about a selection: the question, then the file name, language, line
 * range and the code. A selection over `max` characters is cut and the message says so.
 */
export function selectionMessage(
  question: string,
  s: SelectionContext,
  labels: {
    header: (file: string, language: string, lines: string) => string;
    truncated: (shown: number, total: number) => string;
  },
  max = MAX_SELECTION_CHARS,
): { content: string; truncated: boolean } {
  const truncated = s.text.length > max;
  const code = truncated ? s.text.slice(0, max) : s.text;
  const fence = fenceFor(code);
  const lines = s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}-${s.endLine}`;
  const parts = [
    question.trim(),
    '',
    labels.header(s.fileName, s.languageId, lines),
    `${fence}${s.languageId}`,
    code,
    fence,
  ];
  if (truncated) parts.push('', labels.truncated(max, s.text.length));
  return { content: parts.join('\n'), truncated };
}

/** The first fenced code block of an answer (the proposed replacement of an edit), or undefined. */
export function firstCodeBlock(markdown: string): string | undefined {
  const m = /^( {0,3})(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n {0,3}\2[`~]*[ \t]*$/m.exec(markdown);
  return m?.[3];
}
