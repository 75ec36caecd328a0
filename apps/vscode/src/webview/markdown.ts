import type { Element, ElementContent, Root, RootContent } from 'hast';
import { common, createLowlight } from 'lowlight';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfm } from 'micromark-extension-gfm';

const lowlight = createLowlight(common);
const syntax = [gfm()];
const trees = [gfmFromMarkdown()];

export interface CodeBlock {
  code: string;
  language: string;
  /** Where the block's buttons go. */
  toolbar: HTMLElement;
}

/** Only these properties become attributes: nothing that runs script or loads anything. */
const SAFE_ATTRIBUTES: Record<string, string> = {
  className: 'class',
  align: 'align',
  start: 'start',
  checked: 'checked',
  disabled: 'disabled',
  type: 'type',
};

function languageOf(code: Element): string {
  const classes = code.properties.className;
  const name = Array.isArray(classes)
    ? classes.find((c) => typeof c === 'string' && c.startsWith('language-'))
    : undefined;
  return typeof name === 'string' ? name.slice('language-'.length) : '';
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(textOf).join('') : '';
}

function toDom(node: RootContent, blocks: CodeBlock[]): Node | null {
  if (node.type === 'text') return document.createTextNode(node.value);
  if (node.type !== 'element') return null;
  if (node.tagName === 'pre' && node.children[0]?.type === 'element' && node.children[0].tagName === 'code') {
    const code = node.children[0];
    const language = languageOf(code);
    const text = textOf(code).replace(/\n$/, '');
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    const toolbar = document.createElement('div');
    toolbar.className = 'code-toolbar';
    const pre = document.createElement('pre');
    const el = document.createElement('code');
    el.className = 'hljs';
    const highlighted = language && lowlight.registered(language) ? lowlight.highlight(language, text) : null;
    for (const child of highlighted ? highlighted.children : [{ type: 'text' as const, value: text }]) {
      const dom = toDom(child as RootContent, blocks);
      if (dom) el.append(dom);
    }
    pre.append(el);
    wrapper.append(toolbar, pre);
    blocks.push({ code: text, language, toolbar });
    return wrapper;
  }
  const el = document.createElement(node.tagName);
  for (const [key, value] of Object.entries(node.properties)) {
    if (key === 'href' && typeof value === 'string') {
      // Links open through VS Code (the host), never inside the webview.
      el.setAttribute('title', value);
      continue;
    }
    const attr = SAFE_ATTRIBUTES[key];
    if (attr && value !== undefined && value !== null && value !== false)
      el.setAttribute(attr, Array.isArray(value) ? value.join(' ') : String(value));
  }
  for (const child of node.children) {
    const dom = toDom(child, blocks);
    if (dom) el.append(dom);
  }
  return el;
}

/** Markdown (CommonMark + GFM) as DOM nodes, raw HTML left out, code highlighted. */
export function renderMarkdown(text: string, into: HTMLElement): CodeBlock[] {
  const mdast = fromMarkdown(text, { extensions: syntax, mdastExtensions: trees });
  const hast = toHast(mdast) as Root;
  const blocks: CodeBlock[] = [];
  const fragment = document.createDocumentFragment();
  for (const child of hast.children) {
    const dom = toDom(child, blocks);
    if (dom) fragment.append(dom);
  }
  into.replaceChildren(fragment);
  return blocks;
}
