import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../../test/render.tsx';
import { Markdown, PlainText, rendererChunk } from './Markdown.tsx';
import { hasFencedCode, hasMath, normalizeMathDelimiters, safeUrl, splitBlocks } from './sanitize.ts';

beforeAll(async () => {
  await loadTestTexts();
  // These tests are about the rendered Markdown: the renderer's chunk is there from the start.
  // Markdown.pending.test.tsx covers the moment before it arrives.
  await rendererChunk.load();
});

declare global {
  interface Window {
    __xss?: number;
  }
}

const XSS = [
  '<script>window.__xss = 1</script>',
  '<img src="x" onerror="window.__xss = 2">',
  '<svg onload="window.__xss = 3"></svg>',
  '<iframe src="javascript:window.__xss = 4"></iframe>',
  '<a href="javascript:window.__xss = 5">raw link</a>',
  '<div style="background:url(javascript:alert(1))">styled</div>',
  '<form action="https://evil.test"><input name="q"><button>go</button></form>',
];

function renderMarkdown(content: string, streaming = false) {
  return renderWithProviders(<Markdown content={content} streaming={streaming} />);
}

describe('Markdown (model output)', () => {
  it('renders GFM: emphasis, lists, tables, strikethrough, task lists and autolinks', () => {
    const { container } = renderMarkdown(
      [
        '**bold** and _it_ and ~~gone~~',
        '',
        '- one',
        '- [x] done',
        '',
        '| a | b |',
        '|:--|--:|',
        '| 1 | 2 |',
        '',
        'see https://example.com/docs',
      ].join('\n'),
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('it');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    const box = container.querySelector('input[type="checkbox"]') as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
    expect(container.querySelector('table td')?.textContent).toBe('1');
    expect((container.querySelectorAll('td')[1] as HTMLElement).style.textAlign).toBe('right');
    const link = container.querySelector('a[href="https://example.com/docs"]');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toContain('noopener');
  });

  it.each(XSS)('shows raw HTML as inert text: %s', (payload) => {
    window.__xss = undefined;
    const { container } = renderMarkdown(`Before\n\n${payload}\n\nand inline ${payload} too`);
    expect(container.querySelector('script, iframe, svg, form, button, img, div[style]')).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.querySelector('[onerror], [onload], [onclick]')).toBeNull();
    // The markup is visible as the text it is.
    expect(container.textContent).toContain(payload.slice(0, 7));
    expect(window.__xss).toBeUndefined();
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
  ])('drops the URL of a link to %s', (url) => {
    const { container } = renderMarkdown(`[click me](${url}) and <${url}>`);
    for (const a of container.querySelectorAll('a')) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/script|data:|file:/i);
    }
    expect(container.textContent).toContain('click me');
  });

  it('keeps http, https, mailto and relative links', () => {
    const { container } = renderMarkdown('[a](https://a.test) [b](mailto:x@y.test) [c](/chats) [d](#top)');
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://a.test', 'mailto:x@y.test', '/chats', '#top']);
    expect(container.querySelector('a[href="/chats"]')?.getAttribute('target')).toBeNull();
  });

  it('offers a remote image as a link to open in a new tab, never as an image the CSP would block', () => {
    const { container } = renderMarkdown('![a cat](https://images.example.com/cat.png)');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    const link = screen.getByRole('link', {
      name: /Abrir imagem de images\.example\.com em nova aba · a cat/,
    });
    expect(link.getAttribute('href')).toBe('https://images.example.com/cat.png');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noreferrer');
  });

  it('never offers images from data: or javascript: URLs', () => {
    const { container } = renderMarkdown(
      '![x](data:image/svg+xml;base64,PHN2Zy8+) ![y](javascript:alert(1))',
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.queryByRole('link', { name: /Abrir imagem/ })).toBeNull();
  });

  it('renders code blocks with a copy button', () => {
    const { container } = renderMarkdown('```js\nconst a = "<b>";\n```');
    expect(container.querySelector('pre code')?.textContent).toBe('const a = "<b>";\n');
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copiar código' })).toBeTruthy();
    expect(screen.getByText('js')).toBeTruthy();
  });

  it('renders a streaming answer block by block with the same result', () => {
    const text = 'Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n1. one\n2. two\n\nEnd';
    const streamed = renderMarkdown(text, true).container.innerHTML;
    const whole = renderMarkdown(text, false).container.innerHTML;
    expect(streamed).toContain('const b = 2;');
    expect(streamed.match(/<pre/g)).toHaveLength(1);
    expect(whole.match(/<pre/g)).toHaveLength(1);
  });
});

describe('PlainText (user messages)', () => {
  it.each(XSS)('shows the message as typed: %s', (payload) => {
    window.__xss = undefined;
    renderWithProviders(
      <div data-testid="out">
        <PlainText content={`**not bold** ${payload}`} />
      </div>,
    );
    const out = screen.getByTestId('out');
    expect(out.textContent).toBe(`**not bold** ${payload}`);
    expect(out.querySelector('script, img, iframe, svg, a, form, strong')).toBeNull();
    expect(window.__xss).toBeUndefined();
  });
});

describe('markdown helpers', () => {
  it('safeUrl keeps only safe schemes', () => {
    expect(safeUrl('https://x.test', 'href')).toBe('https://x.test');
    expect(safeUrl('javascript:alert(1)', 'href')).toBeNull();
    expect(safeUrl('\u0000javascript:alert(1)', 'href')).toBeNull();
    expect(safeUrl('/relative', 'src')).toBeNull();
    expect(safeUrl('http://x.test/a.png', 'src')).toBe('http://x.test/a.png');
  });

  it('detects code and math so their chunks load only when needed', () => {
    expect(hasFencedCode('text\n```py\nx\n```')).toBe(true);
    expect(hasFencedCode('no code `inline` here')).toBe(false);
    expect(hasMath('Energy $E = mc^2$ here')).toBe(true);
    expect(hasMath('$$\\int x$$')).toBe(true);
    expect(hasMath('\\(a+b\\)')).toBe(true);
    expect(hasMath('It costs $5 and $10')).toBe(false);
  });

  it('turns \\[ \\] and \\( \\) into dollar math outside code', () => {
    expect(normalizeMathDelimiters('a \\(x^2\\) b')).toBe('a $x^2$ b');
    expect(normalizeMathDelimiters('\\[\\sum_i i\\]')).toBe('$$\\sum_i i$$');
    expect(normalizeMathDelimiters('`\\(x\\)`')).toBe('`\\(x\\)`');
    expect(normalizeMathDelimiters('```\n\\(x\\)\n```')).toBe('```\n\\(x\\)\n```');
  });

  it('splits blocks at blank lines but never inside fences or indented continuations', () => {
    expect(splitBlocks('a\n\nb')).toEqual(['a\n', 'b']);
    expect(splitBlocks('```\nx\n\ny\n```\n\nz')).toEqual(['```\nx\n\ny\n```\n', 'z']);
    expect(splitBlocks('- a\n\n  more\n\nz')).toEqual(['- a\n\n  more\n', 'z']);
  });
});
