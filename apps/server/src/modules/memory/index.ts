import { defineModule } from '../../lib/module.ts';
import { memorySettingsRoutes, myMemoriesRoutes } from './routes.ts';
import { type MemoryService, memoryService } from './service.ts';

export type { AnswerMemory } from './answers.ts';
export type { MemoryService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** People's memories and each domain's switch (docs/ARCHITECTURE.md#memory). */
    memory: MemoryService;
  }
}

/**
 * Memory (docs/ARCHITECTURE.md#memory): what a person asked the assistant to remember, given to
 * their own chats only. Listed before tools and agents, which use its service.
 */
export const memoryModule = defineModule({
  name: 'memory',
  hostedBy: 'accounts',
  services: (ctx) => ({ memory: memoryService(ctx) }),
  close: (s) => s.memory?.close(),
  routes: [
    { plugin: memorySettingsRoutes, prefix: '/api/v1/settings/memory' },
    { plugin: myMemoriesRoutes, prefix: '/api/v1/me/memories' },
  ],
});
