// Loaded only when a message has fenced code: lowlight (highlight.js) with the languages models
// write most, registered one by one so the chunk stays small and nothing is fetched from a network.

import type { Element, ElementContent, Root } from 'hast';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import type { MarkdownPlugin } from './pipeline.ts';
import './highlight.css';

const lowlight = createLowlight({
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  sql,
  typescript,
  xml,
  yaml,
});
lowlight.registerAlias({
  bash: ['sh', 'shell', 'zsh', 'console'],
  csharp: ['cs', 'c#'],
  javascript: ['js', 'jsx', 'mjs', 'cjs', 'node'],
  typescript: ['ts', 'tsx', 'mts'],
  python: ['py'],
  xml: ['html', 'svg', 'xhtml'],
  yaml: ['yml'],
  markdown: ['md'],
  rust: ['rs'],
  ruby: ['rb'],
  kotlin: ['kt'],
  cpp: ['c++', 'hpp', 'cc'],
  dockerfile: ['docker'],
});

function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  return node.children.map(textOf).join('');
}

function languageOf(node: Element): string | null {
  const classes = node.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === 'string' && name.startsWith('language-'))
      return name.slice('language-'.length).toLowerCase();
  }
  return null;
}

function visit(node: Root | Element, parent: Root | Element | null): void {
  if (
    node.type === 'element' &&
    node.tagName === 'code' &&
    parent?.type === 'element' &&
    parent.tagName === 'pre'
  ) {
    const language = languageOf(node);
    if (language && lowlight.registered(language)) {
      const tree = lowlight.highlight(language, textOf(node));
      node.children = tree.children as ElementContent[];
      const classes = Array.isArray(node.properties.className) ? node.properties.className : [];
      node.properties = { ...node.properties, className: [...classes, 'hljs'] };
    }
    return;
  }
  for (const child of node.children) if (child.type === 'element') visit(child, node);
}

/** Highlights `pre > code.language-x` with highlight.js's token spans (a tree, never HTML strings). */
export const highlightPlugin: MarkdownPlugin = { transform: (tree) => visit(tree, null) };
