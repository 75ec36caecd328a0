import { type Citation, KNOWLEDGE_SOURCE_REF_KIND, KnowledgeLimits } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { searchKnowledge } from './indexer.ts';

/** What a santito's knowledge adds to an answer: the passages for the model and their sources. */
export interface AnswerKnowledge {
  /** Appended to the system prompt; undefined when nothing relevant was found. */
  prompt?: string;
  citations: Citation[];
}

/** Longest passage text put in the model's context (characters). */
const MAX_PASSAGE = 4000;

/** The knowledge-source ids a santito lists (`{ kind: "source", ref }`). */
export function sourceRefs(knowledge: ReadonlyArray<{ kind: string; ref: string }>): string[] {
  return [...new Set(knowledge.filter((k) => k.kind === KNOWLEDGE_SOURCE_REF_KIND).map((k) => k.ref))];
}

/**
 * The best passages of the santito's sources for `question`, numbered by document: the model cites
 * `[n]` and the answer carries the n-th citation. Retrieval is filtered by the santito's domain, so a
 * source id of another domain finds nothing; the caller already passed the santito's visibility
 * check (only then does this run).
 */
export async function knowledgeForAnswer(
  ctx: AppContext,
  domainId: string,
  knowledge: ReadonlyArray<{ kind: string; ref: string }>,
  question: string,
): Promise<AnswerKnowledge> {
  const found = await knowledgePassages(ctx, domainId, knowledge, question, KnowledgeLimits.contextChunks);
  if (found.passages.length === 0) return { citations: [] };
  const prompt = [
    'Use the knowledge below to answer when it is relevant. Cite the passages you use with their number in brackets, like [1]. If the knowledge does not answer the question, say so instead of guessing.',
    '<knowledge>',
    found.passages.join('\n\n'),
    '</knowledge>',
  ].join('\n');
  return { prompt, citations: found.citations };
}

/**
 * The best `limit` passages of the sources `knowledge` lists for `query`, each as `[n] title —
 * heading` and its text, `n` numbering their documents in `citations`. For answers, and for the
 * search tools of programs (the `/mcp` server's `search_knowledge`).
 */
export async function knowledgePassages(
  ctx: AppContext,
  domainId: string,
  knowledge: ReadonlyArray<{ kind: string; ref: string }>,
  query: string,
  limit: number,
): Promise<{ passages: string[]; citations: Citation[] }> {
  const refs = sourceRefs(knowledge);
  if (refs.length === 0 || !query.trim()) return { passages: [], citations: [] };
  const hits = await searchKnowledge(ctx, domainId, refs, query, limit);
  const citations: Citation[] = [];
  const numberOf = new Map<string, number>();
  const passages = hits.map((hit) => {
    let n = numberOf.get(hit.documentId);
    if (n === undefined) {
      citations.push({ title: hit.title, url: hit.url, sourceId: hit.sourceId });
      n = citations.length;
      numberOf.set(hit.documentId, n);
    }
    const where = hit.heading ? `${hit.title} — ${hit.heading}` : hit.title;
    return `[${n}] ${where}\n${hit.text.slice(0, MAX_PASSAGE)}`;
  });
  return { passages, citations };
}
