import { memo } from 'react';
import { lazyModule, useLazyModule } from '../../../ui/lazyModule.ts';
import classes from './Markdown.module.css';
import type { MarkdownProps } from './MarkdownRenderer.tsx';

/**
 * The Markdown renderer (micromark, GFM, the HTML tree → React elements, the code block and link
 * components) is a chunk of its own, fetched once the first answer has been painted: a chat shows
 * its messages without waiting for it, and the page's first load carries none of it.
 */
export const rendererChunk = lazyModule(() => import('./MarkdownRenderer.tsx'));

/**
 * Starts fetching the renderer before any answer needs it: a user who is typing a question will
 * read an answer in a moment, and in a chat without messages nothing else would fetch it.
 */
export function prefetchRenderer(): void {
  if (rendererChunk.get()) return;
  rendererChunk.load().catch(() => {
    // Offline or a new build: the first answer fetches it again.
  });
}

/**
 * Model output as Markdown (GFM), sanitised: raw HTML shows as text, only safe link schemes,
 * remote images as links to open. Code highlighting and math load on first need.
 *
 * Until the renderer's chunk has arrived (a moment, on the first answer after a page load) the
 * answer shows as its plain text, which is as inert as a user's message; it is then re-rendered.
 * If the chunk cannot be fetched (offline, a new build) the text stays readable as it is.
 */
export const Markdown = memo(function Markdown({ content, streaming = false, citations }: MarkdownProps) {
  const renderer = useLazyModule(rendererChunk, true, true);
  if (!renderer) {
    return (
      <div className={classes.body} data-markdown="pending">
        <PlainText content={content} />
      </div>
    );
  }
  return <renderer.RenderedMarkdown content={content} streaming={streaming} citations={citations} />;
});

/** A user's own message: plain text, never interpreted (line breaks kept). */
export function PlainText({ content }: { content: string }) {
  return <div className={classes.plain}>{content}</div>;
}
