import type { Chat, Message, ServerFrame } from '@assistente/contracts';
import { z } from 'zod';
import type { RefusalTexts } from './refusal.ts';

/**
 * Messages between the chat webview and the extension host. The webview never holds a token: it asks the
 * host, which talks to the server. What the webview sends is checked like any untrusted input.
 */
const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('signIn') }),
  z.strictObject({ type: z.literal('newChat') }),
  z.strictObject({ type: z.literal('openChat'), chatId: z.string().min(1).max(100) }),
  z.strictObject({
    type: z.literal('send'),
    content: z.string().trim().min(1).max(100_000),
    model: z.string().max(200).optional(),
    agentId: z.string().max(100).optional(),
  }),
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('copy'), code: z.string().max(1_000_000) }),
  z.strictObject({ type: z.literal('insert'), code: z.string().max(1_000_000) }),
  z.strictObject({
    type: z.literal('newFile'),
    code: z.string().max(1_000_000),
    language: z.string().max(50),
  }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export interface Choice {
  id: string;
  name: string;
}

/** The translated texts the webview shows (it has no access to VS Code's l10n). */
export interface ViewTexts extends RefusalTexts {
  /** The editor's language, for dates in texts. */
  language: string;
  signIn: string;
  signInHint: string;
  newChat: string;
  chats: string;
  send: string;
  stop: string;
  placeholder: string;
  copy: string;
  copied: string;
  insert: string;
  newFile: string;
  model: string;
  defaultModel: string;
  santito: string;
  noSantito: string;
  empty: string;
  stopped: string;
  failed: string;
}

export type HostMessage =
  | {
      type: 'state';
      signedIn: boolean;
      account?: string;
      chats: Pick<Chat, 'chatId' | 'title'>[];
      models: Choice[];
      defaultModel: string | null;
      santitos: Choice[];
      texts: ViewTexts;
    }
  | {
      type: 'chat';
      chatId: string | null;
      messages: Pick<Message, 'messageId' | 'role' | 'content' | 'status'>[];
    }
  | { type: 'frame'; frame: ServerFrame }
  | { type: 'notice'; text: string };

/** Parses a message from the webview; undefined for anything malformed (ignored, never acted on). */
export function parseWebviewMessage(data: unknown): WebviewMessage | undefined {
  const r = WebviewMessageSchema.safeParse(data);
  return r.success ? r.data : undefined;
}
