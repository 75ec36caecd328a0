import type { Attachment, Citation, MessagePart, ToolPart } from '@assistente/contracts';
import type { ModelMessage } from 'ai';
import type { AnswerTool } from '../tools/index.ts';
import type { ModelTool } from './model-calls.ts';

/*
 * The tool loop's pieces that hold no state (docs/ARCHITECTURE.md#the-tool-loop): what the model
 * is offered, and how an answer's stored steps become the model's messages again, so a paused
 * answer resumes on any replica from its row alone.
 */

/** How an answer's tool calls run: the tools it may call, and the seams the loop calls through. */
export interface ToolRuntime {
  tools: AnswerTool[];
  /**
   * Tools the person allowed for the rest of the chat, read when the model first calls a tool: an
   * answer that calls none never waits for it before its first token.
   */
  allowed(): Promise<ReadonlySet<string>>;
  /** Nobody can answer an approval (a visitor): `ask` counts as deny. */
  askIsDeny: boolean;
  /** `cited`: the answer's sources so far, after which the call numbers those it adds. */
  run(
    tool: AnswerTool,
    input: Record<string, unknown>,
    signal: AbortSignal,
    cited: readonly Citation[],
  ): Promise<{ text: string; isError: boolean; citations?: Citation[]; files?: Attachment[] }>;
  audit(call: {
    ref: string;
    input: unknown;
    decision: 'allow' | 'ask' | 'deny' | 'allowed' | 'denied';
    status: string;
    durationMs?: number;
  }): Promise<void>;
}

/**
 * A call's id, unique within the answer: some providers number calls afresh each step
 * (`call_0` twice), and the person's approval, the results and the web's step cards go by id.
 */
export function uniqueCallId(parts: readonly MessagePart[], id: string): string {
  const taken = new Set(parts.flatMap((p) => (p.type === 'tool' ? [p.toolCallId] : [])));
  if (!taken.has(id)) return id;
  let n = 2;
  while (taken.has(`${id}_${n}`)) n++;
  return `${id}_${n}`;
}

/** What the model is offered. */
export const modelTools = (tools: readonly AnswerTool[]): ModelTool[] =>
  tools.map((t) => ({
    name: t.modelName,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema as ModelTool['inputSchema'],
  }));

/** What the model reads for a call that did not run. */
export const DENIED_OUTPUT = 'The person did not allow this tool call.';

/** A tool call's input as the model wrote it: a JSON object, or nothing usable. */
export function parseInput(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The text the parts hold: where the answer's streamed text continues. */
export const partsTextLength = (parts: readonly MessagePart[]) =>
  parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);

/**
 * The model's messages for an answer's steps: each step's text and calls as one assistant
 * message, then the calls' results as one tool message. Calls not decided yet are left out.
 */
export function historyOf(parts: readonly MessagePart[], tools: readonly AnswerTool[]): ModelMessage[] {
  const nameOf = (ref: string) =>
    tools.find((t) => t.ref === ref)?.modelName ??
    ref
      .split(':')
      .pop()
      ?.replace(/[^A-Za-z0-9_-]/g, '_') ??
    'tool';
  const messages: ModelMessage[] = [];
  let text = '';
  let calls: ToolPart[] = [];
  const close = () => {
    if (calls.length > 0) {
      messages.push({
        role: 'assistant',
        content: [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...calls.map((c) => ({
            type: 'tool-call' as const,
            toolCallId: c.toolCallId,
            toolName: nameOf(c.tool),
            input: c.input ?? {},
          })),
        ],
      });
      messages.push({
        role: 'tool',
        content: calls.map((c) => ({
          type: 'tool-result' as const,
          toolCallId: c.toolCallId,
          toolName: nameOf(c.tool),
          output:
            c.status === 'done'
              ? { type: 'text' as const, value: c.output ?? '' }
              : { type: 'error-text' as const, value: c.output ?? DENIED_OUTPUT },
        })),
      });
    } else if (text) messages.push({ role: 'assistant', content: text });
    text = '';
    calls = [];
  };
  for (const part of parts) {
    if (part.type === 'text') {
      if (calls.length > 0) close();
      text += part.text;
    } else if (part.status !== 'awaiting_approval' && part.status !== 'running') calls.push(part);
  }
  close();
  return messages;
}
