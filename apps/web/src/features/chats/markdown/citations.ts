import type { Citation } from '@assistente/contracts';
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import type { MarkdownPlugin } from './pipeline.ts';

// The model cites the n-th source as `[n]`; only numbers the answer has a source for count.
const MARKER = /\[(\d{1,3})\]/g;

/** The sources an answer cites by `[n]`, by number (1-based), in order; outside code too, as read. */
export function citedNumbers(content: string, count: number): number[] {
  const cited = new Set<number>();
  for (const match of content.matchAll(MARKER)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= count) cited.add(n);
  }
  return [...cited].sort((a, b) => a - b);
}

/** The id of a message's n-th source in its list, where a marker of an uploaded document leads. */
export const citationAnchor = (messageId: string, n: number) => `citation-${messageId}-${n}`;

// Code shows what was written and a link cannot hold another.
const UNTOUCHED = new Set(['code', 'pre', 'a']);

function markerLink(citation: Citation, anchor: string, n: number): Element {
  const external = /^https?:\/\//i.test(citation.url);
  return {
    type: 'element',
    tagName: 'a',
    properties: {
      href: external ? citation.url : `#${anchor}`,
      title: citation.title,
      dataCitation: String(n),
    },
    children: [{ type: 'text', value: `[${n}]` }],
  };
}

function splitText(node: Text, citations: readonly Citation[], messageId: string): ElementContent[] {
  const out: ElementContent[] = [];
  let last = 0;
  for (const match of node.value.matchAll(MARKER)) {
    const n = Number(match[1]);
    const citation = citations[n - 1];
    if (!citation) continue;
    const at = match.index;
    if (at > last) out.push({ type: 'text', value: node.value.slice(last, at) });
    out.push(markerLink(citation, citationAnchor(messageId, n), n));
    last = at + match[0].length;
  }
  if (last === 0) return [node];
  if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) });
  return out;
}

function linkMarkers(parent: Root | Element, citations: readonly Citation[], messageId: string): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'text') {
      children.push(...splitText(child, citations, messageId));
      continue;
    }
    if (child.type === 'element' && !UNTOUCHED.has(child.tagName)) linkMarkers(child, citations, messageId);
    children.push(child);
  }
  // Only text became links (elements): an element's children stay element content.
  parent.children = children as ElementContent[];
}

/**
 * Turns an answer's `[n]` markers into links to the n-th source: the page itself for a web source,
 * the source's entry under the answer for an uploaded document (its file needs the session).
 */
export function citationPlugin(citations: readonly Citation[], messageId: string): MarkdownPlugin {
  return { transform: (tree) => linkMarkers(tree, citations, messageId) };
}
