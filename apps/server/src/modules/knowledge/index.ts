export { type AnswerKnowledge, knowledgeForAnswer, sourceRefs } from './answers.ts';
export { knowledgeRoutes } from './routes.ts';
export { type KnowledgeService, knowledgeService } from './service.ts';
