import type { Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes } from 'mdast';
import { type Extension as FromMarkdownExtension, fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';
import type { Extension as MicromarkExtension } from 'micromark-util-types';

/**
 * What a lazily loaded chunk adds to the pipeline: syntax (math) and tree transforms (math
 * rendering, code highlighting) that run on the HTML tree before it becomes React elements.
 */
export interface MarkdownPlugin {
  syntax?: MicromarkExtension;
  fromMarkdown?: FromMarkdownExtension | FromMarkdownExtension[];
  transform?: (tree: HastRoot) => void;
}

// Stateless configuration: made once.
const GFM_SYNTAX = gfm();
const GFM_MDAST = gfmFromMarkdown();

/** Raw HTML in Markdown stays the text it is: it never becomes an element. */
function htmlAsText(node: MdastNodes): void {
  if (node.type === 'html') {
    (node as { type: string }).type = 'text';
    return;
  }
  if ('children' in node) for (const child of node.children) htmlAsText(child);
}

/**
 * Markdown (CommonMark + GFM) → an HTML tree (hast). The same micromark/mdast/hast pipeline
 * react-markdown runs, without its renderer's weight; raw HTML is never let through.
 */
export function markdownToHast(text: string, plugins: readonly MarkdownPlugin[] = []): HastRoot {
  const micromarkExtensions: MicromarkExtension[] = [GFM_SYNTAX];
  const mdastExtensions: Array<FromMarkdownExtension | FromMarkdownExtension[]> = [GFM_MDAST];
  for (const plugin of plugins) {
    if (plugin.syntax) micromarkExtensions.push(plugin.syntax);
    if (plugin.fromMarkdown) mdastExtensions.push(plugin.fromMarkdown);
  }
  const mdast = fromMarkdown(text, { extensions: micromarkExtensions, mdastExtensions });
  htmlAsText(mdast);
  const hast = toHast(mdast, { allowDangerousHtml: false });
  const root: HastRoot = hast.type === 'root' ? hast : { type: 'root', children: [] };
  for (const plugin of plugins) plugin.transform?.(root);
  return root;
}
