import { defineModule } from '../../lib/module.ts';
import { knowledgeRoutes } from './routes.ts';
import { type KnowledgeService, knowledgeService } from './service.ts';

export { type AnswerKnowledge, knowledgeForAnswer, knowledgePassages, sourceRefs } from './answers.ts';
export type { KnowledgeService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    knowledge: KnowledgeService;
  }
}

/** Knowledge sources of premium domains (docs/ARCHITECTURE.md#knowledge). */
export const knowledgeModule = defineModule({
  name: 'knowledge',
  hostedBy: 'accounts',
  services: (ctx) => ({ knowledge: knowledgeService(ctx) }),
  close: (s) => s.knowledge?.close(),
  routes: [{ plugin: knowledgeRoutes, prefix: '/api/v1/integration/knowledge' }],
  jobs: [
    {
      // Syncs due Confluence sources and resumes uploads a restart left.
      name: 'knowledge.sync',
      everyMs: 30_000,
      run: (ctx) => ctx.services.knowledge.sync.run(),
    },
  ],
});
