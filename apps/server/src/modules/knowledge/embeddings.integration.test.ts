import type { ProviderKind } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureEmbedding, type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { embedTexts, normalise } from './embeddings.ts';

let fx: LlmFixture;

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
});

afterAll(async () => {
  await fx?.close();
});

/** Where each kind's API lives on the fixture, as an Admin would enter it. */
const baseUrlOf = (kind: ProviderKind) =>
  kind === 'google' ? `${fx.url}/v1beta` : kind === 'ollama' ? fx.url : fx.baseUrl;

/** The path each kind's embeddings call takes (docs/ARCHITECTURE.md#knowledge: OpenAI-compatible, Ollama, Google). */
const PATHS: Record<string, RegExp> = {
  'openai-compatible': /^\/v1\/embeddings$/,
  openai: /^\/v1\/embeddings$/,
  ollama: /^\/api\/embed$/,
  google: /^\/v1beta\/models\/text-embedding-004:(batchEmbedContents|embedContent)$/,
};

describe.each(['openai-compatible', 'openai', 'ollama', 'google'] as const)(
  'embeddings through %s',
  (kind) => {
    const name = kind === 'google' ? 'text-embedding-004' : 'fixture-embed';
    const target = () => ({
      spec: { kind, baseUrl: baseUrlOf(kind), apiKey: 'test-key', fetch: globalThis.fetch },
      name,
      modelId: `p:${name}`,
    });

    it('answers unit vectors in the order of the texts, over the provider’s own API', async () => {
      fx.reset();
      const texts = ['Férias de verão', 'vacation policy', 'reembolso de despesas'];
      const vectors = await embedTexts(target(), texts);
      expect(vectors).toHaveLength(3);
      vectors.forEach((v, i) => {
        expect(v).toEqual(normalise(fixtureEmbedding(texts[i] as string)));
      });
      const paths = fx.requests.map((r) => new URL(r.path, 'http://x').pathname);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.every((p) => PATHS[kind]?.test(p))).toBe(true);
    });

    it('embeds one text (a question) the same way as in a batch', async () => {
      const [one] = await embedTexts(target(), ['vacation policy']);
      expect(one).toEqual(normalise(fixtureEmbedding('vacation policy')));
    });

    it('batches more texts than one request takes', async () => {
      fx.reset();
      const texts = Array.from({ length: 130 }, (_, i) => `texto número ${i}`);
      const vectors = await embedTexts(target(), texts);
      expect(vectors).toHaveLength(130);
      expect(vectors[129]).toEqual(normalise(fixtureEmbedding('texto número 129')));
      expect(fx.requests.length).toBe(3);
    });
  },
);
