import { z } from 'zod';

/** GET /runtime-config.json: one web build serves every deployment. */
export const RuntimeConfigSchema = z.object({
  projectId: z.string(),
  chatsManagerUrl: z.string(),
  accountManagerUrl: z.string(),
  codeAssistUrl: z.string(),
  agentsWsUrl: z.string(),
  identity: z.object({
    apiKey: z.string(),
    authDomain: z.string(),
    projectId: z.string(),
    baseUrl: z.string(),
  }),
  storageBucket: z.string(),
  editorDeepLink: z.string(),
  buildId: z.string(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export { DefaultLocale, type Locale, Locales } from './locales.ts';
