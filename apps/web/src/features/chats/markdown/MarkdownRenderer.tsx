import type { Citation } from '@assistente/contracts';
import { IconPhoto } from '@tabler/icons-react';
import type { Element, ElementContent } from 'hast';
import { memo, type ReactNode, useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';
import { lazyModule, useLazyModule } from '../../../ui/lazyModule.ts';
import { citationPlugin } from './citations.ts';
import { type ElementComponents, hastToReact } from './hastToReact.ts';
import classes from './Markdown.module.css';
import { type MarkdownPlugin, markdownToHast } from './pipeline.ts';
import { hasFencedCode, hasMath, normalizeMathDelimiters, splitBlocks, urlScheme } from './sanitize.ts';

// The Markdown renderer's chunk (micromark, GFM, mdast → hast → React elements), which Markdown.tsx
// fetches once a message has been painted. The highlighter and KaTeX are chunks of their own,
// fetched only for a message that needs them.
export const highlightChunk = lazyModule(() => import('./highlight.ts'));
export const mathChunk = lazyModule(() => import('./math.ts'));

type Props = { node: Element; props: Record<string, unknown>; children?: ReactNode };

function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  return node.children.map(textOf).join('');
}

function CodeBlock({ node, props, children }: Props) {
  const { t } = useTranslation();
  const code = node.children.find((child): child is Element => child.type === 'element');
  const text = code ? textOf(code).replace(/\n$/, '') : '';
  const classNames = code?.properties.className;
  const language =
    (Array.isArray(classNames) ? classNames : [])
      .map(String)
      .find((c) => c.startsWith('language-'))
      ?.slice('language-'.length) ?? '';
  return (
    <div className={classes.code}>
      <div className={classes.codeHeader}>
        <span>{language || t('chats.markdown.code')}</span>
        <CopyIconButton value={text} label={t('chats.markdown.copy_code')} iconSize={14} />
      </div>
      <pre {...props}>{children}</pre>
    </div>
  );
}

function SafeLink({ props, children }: Props) {
  const href = typeof props.href === 'string' ? props.href : '';
  if (!href) return <span>{children}</span>;
  const scheme = urlScheme(href);
  const external = scheme === 'http' || scheme === 'https';
  return (
    <a
      {...props}
      href={href}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : { rel: 'nofollow' })}
    >
      {children}
    </a>
  );
}

function hostOf(src: string): string {
  try {
    return new URL(src).host;
  } catch {
    return src;
  }
}

/**
 * An image in an answer is always remote (only http(s) sources survive sanitising), and the page's
 * own CSP allows images from this origin only, so it is offered as a link that opens in a new tab:
 * nothing is fetched on render (no tracking pixels) and nothing is proxied through the server.
 */
function RemoteImage({ props }: Props) {
  const { t } = useTranslation();
  const src = typeof props.src === 'string' ? props.src : '';
  const alt = typeof props.alt === 'string' ? props.alt : '';
  if (!src) return alt ? <span>[{alt}]</span> : null;
  return (
    <a href={src} className={classes.imageLink} target="_blank" rel="noopener noreferrer nofollow">
      <IconPhoto size={16} stroke={1.6} aria-hidden className={classes.imageLinkIcon} />
      <span>
        {t('chats.markdown.open_image', { host: hostOf(src) })}
        {alt ? ` · ${alt}` : ''}
      </span>
    </a>
  );
}

function TableWrap({ props, children }: Props) {
  return (
    <div className={classes.tableWrap}>
      <table {...props}>{children}</table>
    </div>
  );
}

const components: ElementComponents = { pre: CodeBlock, a: SafeLink, img: RemoteImage, table: TableWrap };

const Block = memo(function Block({ text, plugins }: { text: string; plugins: readonly MarkdownPlugin[] }) {
  const nodes = useMemo(() => hastToReact(markdownToHast(text, plugins), components), [text, plugins]);
  return <>{nodes}</>;
});

const NO_PLUGINS: readonly MarkdownPlugin[] = [];

/** An answer's sources: its `[n]` markers link to the n-th. */
export interface CitedSources {
  messageId: string;
  sources: readonly Citation[];
}

export interface MarkdownProps {
  content: string;
  streaming?: boolean;
  /** Memoised by the caller: a new object renders every block again. */
  citations?: CitedSources | undefined;
}

/**
 * Model output as Markdown (GFM), sanitised: raw HTML shows as text, only safe link schemes,
 * remote images as links to open. Code highlighting and math load on first need. While an answer
 * streams it is rendered block by block, so only the growing last block is parsed again.
 */
export const RenderedMarkdown = memo(function RenderedMarkdown({
  content,
  streaming = false,
  citations,
}: MarkdownProps) {
  const needsCode = hasFencedCode(content);
  const needsMath = hasMath(content);
  const highlight = useLazyModule(highlightChunk, needsCode);
  const math = useLazyModule(mathChunk, needsMath);
  const plugins = useMemo<readonly MarkdownPlugin[]>(() => {
    const list = [
      ...(math ? [math.mathPlugin] : []),
      ...(highlight ? [highlight.highlightPlugin] : []),
      ...(citations && citations.sources.length > 0
        ? [citationPlugin(citations.sources, citations.messageId)]
        : []),
    ];
    return list.length > 0 ? list : NO_PLUGINS;
  }, [highlight, math, citations]);
  const text = math ? normalizeMathDelimiters(content) : content;
  const blocks = streaming ? splitBlocks(text) : [text];

  return (
    <div className={classes.body}>
      {blocks.map((block, i) => (
        // Blocks only ever grow at the end: the index is a stable key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Block key={i} text={block} plugins={plugins} />
      ))}
    </div>
  );
});
