// Loaded only when a message has math: micromark-extension-math reads $…$ / $$…$$ and rehype-katex
// renders it with KaTeX (its CSS and fonts bundled, nothing fetched from a network).
import 'katex/dist/katex.min.css';
import type { Root } from 'hast';
import { mathFromMarkdown } from 'mdast-util-math';
import { math } from 'micromark-extension-math';
import rehypeKatex from 'rehype-katex';
import { VFile } from 'vfile';
import type { MarkdownPlugin } from './pipeline.ts';

// KaTeX with `trust` off: no \href, \url, \includegraphics or HTML extensions from model text.
const render = rehypeKatex({ trust: false, strict: 'ignore', maxExpand: 200 });

export const mathPlugin: MarkdownPlugin = {
  syntax: math(),
  fromMarkdown: mathFromMarkdown(),
  transform: (tree: Root) => {
    render(tree, new VFile());
  },
};
