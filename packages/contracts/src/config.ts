import { z } from 'zod';

/** GET /runtime-config.json: one web build serves every deployment. */
export const RuntimeConfigSchema = z.object({
  /** The address the web app is meant to be opened at: PUBLIC_URL, or the one the browser used. */
  appUrl: z.string(),
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
  /** Origins of browser-hosted editors the handoff may send a code to, once the user confirms (EDITOR_CALLBACK_ORIGINS). */
  editorCallbackOrigins: z.array(z.string()),
  /** The largest file one upload may carry (the server's UPLOAD_MAX_BYTES): the browser checks it first. */
  uploadMaxBytes: z.number().int().positive(),
  buildId: z.string(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

export { DefaultLocale, type Locale, Locales } from './locales.ts';
