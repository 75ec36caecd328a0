import { render } from '@testing-library/react';
import type { Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { hastToReact, parseStyle, toReactProps } from './hastToReact.ts';
import { highlightPlugin } from './highlight.ts';
import { mathPlugin } from './math.ts';
import { markdownToHast } from './pipeline.ts';

function html(tree: Root): string {
  return render(<div data-testid="out">{hastToReact(tree)}</div>).getByTestId('out').innerHTML;
}

describe('markdown pipeline', () => {
  it('never lets raw HTML become an element', () => {
    const out = html(markdownToHast('<b onclick="x()">hi</b>\n\n<script>alert(1)</script>'));
    expect(out).not.toContain('<b');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;');
  });

  it('highlights fenced code of a known language with token spans, not HTML strings', () => {
    const tree = markdownToHast('```python\ndef f(x):\n    return "<i>"\n```', [highlightPlugin]);
    const out = html(tree);
    expect(out).toContain('class="language-python hljs"');
    expect(out).toContain('<span class="hljs-keyword">def</span>');
    expect(out).toContain('&lt;i&gt;');
    expect(out).not.toContain('<i>');
  });

  it('leaves code of an unknown language as plain text', () => {
    const out = html(markdownToHast('```brainfuck\n+++\n```', [highlightPlugin]));
    expect(out).toContain('+++');
    expect(out).not.toContain('hljs-');
  });

  it('renders inline and display math with KaTeX', () => {
    const out = html(markdownToHast('Energia $E=mc^2$.\n\n$$\n\\frac{a}{b}\n$$', [mathPlugin]));
    expect(out).toContain('class="katex"');
    expect(out).toContain('katex-display');
    expect(out).toContain('<math');
  });

  it('keeps KaTeX from making links or loading anything from model TeX', () => {
    const out = html(
      markdownToHast('$\\href{javascript:alert(1)}{x}$ $\\url{https://evil.test}$', [mathPlugin]),
    );
    expect(out).not.toContain('href="javascript');
    expect(out).not.toMatch(/<a[\s>]/);
  });
});

describe('hastToReact', () => {
  it('drops event handlers and unsafe URLs, and unwraps unknown elements', () => {
    const tree: Root = {
      type: 'root',
      children: [
        {
          type: 'element',
          tagName: 'a',
          properties: { href: 'javascript:alert(1)', onClick: 'x()', dataFootnoteRef: true, ariaLabel: 'a' },
          children: [{ type: 'text', value: 'link' }],
        },
        {
          type: 'element',
          tagName: 'iframe',
          properties: { src: 'https://evil.test' },
          children: [{ type: 'text', value: 'inside' }],
        },
        {
          type: 'element',
          tagName: 'script',
          properties: {},
          children: [{ type: 'text', value: 'alert(1)' }],
        },
      ],
    };
    const out = html(tree);
    expect(out).toContain('<a data-footnote-ref="" aria-label="a">link</a>');
    expect(out).not.toContain('iframe');
    expect(out).not.toContain('<script');
    expect(out).toContain('<span>inside</span>');
  });

  it('maps properties: class lists, task checkboxes, table alignment', () => {
    expect(toReactProps('code', { className: ['language-ts', 'x'] })).toEqual({ className: 'language-ts x' });
    expect(toReactProps('input', { type: 'checkbox', checked: true, disabled: true })).toEqual({
      type: 'checkbox',
      checked: true,
      disabled: true,
      readOnly: true,
    });
    expect(toReactProps('input', { type: 'text', value: 'x' })).toEqual({ hidden: true });
    expect(toReactProps('td', { align: 'center' })).toEqual({ style: { textAlign: 'center' } });
  });

  it('parses KaTeX inline styles and refuses ones that could fetch', () => {
    expect(parseStyle('height:1em;vertical-align:-0.25em;')).toEqual({
      height: '1em',
      verticalAlign: '-0.25em',
    });
    expect(parseStyle('background:url(https://evil.test/x.png);color:red')).toEqual({ color: 'red' });
  });
});
