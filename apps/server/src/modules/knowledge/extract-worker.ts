// The extraction thread: PDF and DOCX parsing, and reading a web page's article, are CPU work of
// seconds on large files, so they run here and the server's event loop keeps answering meanwhile.
import { workerSide } from '../../lib/ts-worker.ts';
import { DocumentBoundsError } from './bounds.ts';
import { extractDocument, htmlToText } from './extract.ts';
import type { ExtractReply, ExtractRequest } from './extractor.ts';

const { port } = workerSide<null>('extract-worker.ts');

port.on('message', (req: ExtractRequest) => {
  const run =
    req.kind === 'html'
      ? Promise.resolve(htmlToText(req.html))
      : req.kind === 'article'
        ? import('./article.ts').then(({ articleOf }) => JSON.stringify(articleOf(req.html, req.url)))
        : extractDocument(req.contentType, req.data);
  run.then(
    (text) => port.postMessage({ id: req.id, text } satisfies ExtractReply),
    (err: unknown) =>
      port.postMessage({
        id: req.id,
        error: err instanceof Error ? err.message : String(err),
        // Anything the bounds did not refuse is the parser failing on the file itself.
        reason: err instanceof DocumentBoundsError ? err.reason : { kind: 'unreadable' },
      } satisfies ExtractReply),
  );
});
