// The model fixture for the streaming bench, in its own process so neither the server nor the
// load generator disturbs its clock. Model `stamp-<tokens>x<ms>` streams <tokens> stamped chunks
// <ms> apart (the first at once). FIXTURE_MODELS (comma list) replaces the listed models, e.g. to
// offer an embedding model.
import { startLlmFixture } from '../apps/server/src/test/llm-fixture.ts';

const fixture = await startLlmFixture({
  record: false,
  models: process.env.FIXTURE_MODELS?.split(',') ?? ['stamp-20x10'],
  scriptFor(body) {
    const model = (body as { model?: unknown } | undefined)?.model;
    const m = typeof model === 'string' ? /^stamp-(\d+)x(\d+)$/.exec(model) : null;
    if (!m) return undefined;
    return { chunks: new Array<string>(Number(m[1])).fill('x'), delayMs: Number(m[2]), stamp: true };
  },
});
process.stdout.write(`${JSON.stringify({ port: fixture.port })}\n`);
process.on('SIGTERM', async () => {
  await fixture.close();
  process.exit(0);
});
