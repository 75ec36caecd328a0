import {
  type ClientFrame,
  ClientFrameSchema,
  type ErrorCode,
  type ErrorFrame,
  type ServerFrame,
  WsCloseCodes,
  WsLimits,
} from '@assistente/contracts';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.ts';
import type { VisitorCaller } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { containsNul, NUL_MESSAGE } from '../../lib/nul.ts';
import { blockedKinds } from '../../lib/pii-filter.ts';
import type { ChatCaller } from '../chats/index.ts';
import { socketAccountChanged } from './errors.ts';
import type { HubClient } from './hub.ts';
import { authorizeFrameAttachments, sendAsAllowed, socketCaller } from './policy.ts';
import type { AgentsService } from './service.ts';

/** A client this far behind (unsent bytes) is dropped; it resumes with `chat.subscribe`. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const KNOWN_TYPES = new Set<string>(ClientFrameSchema.options.map((o) => o.shape.type.value));

type Phase = 'auth' | 'authenticating' | 'ready' | 'closed';

/** The error frame's code and message for anything a handler threw; internals never leak. */
function toErrorFrame(err: unknown, ctx: AppContext): Omit<ErrorFrame, 'type' | 'requestId' | 'chatId'> {
  if (err instanceof AppError) {
    // A budget's refusal says when sending works again (docs/ARCHITECTURE.md#usage-prices-and-budgets).
    const resetsAt = (err.details as { resetsAt?: unknown } | undefined)?.resetsAt;
    // The PII filter's names the kinds it found, never the text (docs/ARCHITECTURE.md#pii-filter).
    const kinds = blockedKinds(err);
    return {
      code: err.code,
      message: err.message,
      ...(typeof resetsAt === 'string' ? { resetsAt } : {}),
      ...(kinds ? { kinds } : {}),
    };
  }
  ctx.log.error({ err }, 'agents: frame handling failed');
  return { code: 'INTERNAL', message: 'Something went wrong; try again.' };
}

/**
 * One websocket connection: the auth handshake, frame validation and dispatch, and closing when
 * the account loses access. Generations never depend on it: closing it stops nothing.
 */
export class AgentSocket implements HubClient {
  private phase: Phase = 'auth';
  private token = '';
  private caller: ChatCaller | undefined;
  /** Set when the socket belongs to an embed's visitor (docs/ARCHITECTURE.md#callers): what they may do is narrower. */
  private visitor: VisitorCaller | undefined;
  private readonly pending: ClientFrame[] = [];
  private readonly authTimer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: AppContext,
    private readonly agents: AgentsService,
    private readonly sockets: Set<AgentSocket>,
    /** The client's address: visitors' limits count per IP too. */
    private readonly ip: string,
  ) {
    this.authTimer = setTimeout(() => {
      if (this.phase !== 'ready') this.close(WsCloseCodes.unauthenticated, 'Authentication timed out');
    }, WsLimits.authTimeoutMs);
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
    sockets.add(this);
  }

  get userId(): string {
    return this.caller?.user.id ?? '';
  }

  /** The account this socket belongs to, for revocation matching. */
  get identity(): { uid: string; email: string; domain: string } | undefined {
    return this.caller
      ? { uid: this.caller.uid, email: this.caller.user.id, domain: this.caller.domain.id }
      : undefined;
  }

  /** The embed a visitor's socket belongs to, for closing them all when it is paused or deleted. */
  get virtualAccountId(): string | undefined {
    return this.visitor?.virtualAccount.id;
  }

  sendRaw(raw: string): void {
    if (this.phase === 'closed' || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'Too far behind; reconnect and resubscribe');
      return;
    }
    this.ws.send(raw);
  }

  send(frame: ServerFrame): void {
    this.sendRaw(JSON.stringify(frame));
  }

  private error(code: ErrorCode, message: string, requestId?: string): void {
    this.send({ type: 'error', ...(requestId ? { requestId } : {}), code, message });
  }

  close(code: number, reason: string): void {
    if (this.phase === 'closed') return;
    this.cleanup();
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
  }

  private cleanup(): void {
    if (this.phase === 'closed') return;
    const wasReady = this.phase === 'ready';
    this.phase = 'closed';
    clearTimeout(this.authTimer);
    this.sockets.delete(this);
    if (wasReady) this.agents.hub.leave(this);
  }

  /** The frame, or why it is refused (with its requestId when it had a readable one). */
  private parse(
    data: Buffer,
    isBinary: boolean,
  ): { frame: ClientFrame } | { code: ErrorCode; message: string; requestId?: string } {
    if (isBinary) return { code: 'BAD_FRAME', message: 'Frames must be JSON text' };
    let json: unknown;
    try {
      json = JSON.parse(data.toString('utf8'));
    } catch {
      return { code: 'BAD_FRAME', message: 'The frame is not valid JSON' };
    }
    const parsed = ClientFrameSchema.safeParse(json);
    const obj = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
    const requestId = typeof obj.requestId === 'string' ? obj.requestId.slice(0, 100) : undefined;
    const ref = requestId ? { requestId } : {};
    if (parsed.success) {
      return containsNul(parsed.data)
        ? { code: 'VALIDATION_FAILED', message: NUL_MESSAGE, ...ref }
        : { frame: parsed.data };
    }
    if (typeof obj.type !== 'string' || !KNOWN_TYPES.has(obj.type)) {
      const named = typeof obj.type === 'string' ? ` "${obj.type.slice(0, 50)}"` : '';
      return { code: 'BAD_FRAME', message: `Unknown frame type${named}`, ...ref };
    }
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || obj.type;
    return {
      code: 'VALIDATION_FAILED',
      message: `${obj.type}: ${where}: ${issue?.message ?? 'invalid frame'}`,
      ...ref,
    };
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.phase === 'closed') return;
    const result = this.parse(data, isBinary);
    if (!('frame' in result)) {
      this.error(result.code, result.message, result.requestId);
      if (this.phase === 'auth') this.close(WsCloseCodes.unauthenticated, 'The first frame must be auth');
      return;
    }
    const { frame } = result;
    if (this.phase === 'auth') {
      if (frame.type === 'auth') void this.authenticate(frame.token);
      else {
        this.error('UNAUTHENTICATED', 'Send an auth frame first');
        this.close(WsCloseCodes.unauthenticated, 'The first frame must be auth');
      }
      return;
    }
    if (this.phase === 'authenticating') this.pending.push(frame);
    else void this.dispatch(frame);
  }

  private async authenticate(token: string): Promise<void> {
    this.phase = 'authenticating';
    const caller = await this.resolve(token);
    if (!caller || this.phase !== 'authenticating') return;
    clearTimeout(this.authTimer);
    this.token = token;
    this.caller = caller;
    this.phase = 'ready';
    await this.agents.hub.join(this);
    if (this.phase !== 'ready') return;
    this.sendReady();
    for (const frame of this.pending.splice(0)) void this.dispatch(frame);
  }

  private sendReady(): void {
    this.send({
      type: 'ready',
      userId: this.userId,
      limits: {
        maxFrameBytes: WsLimits.maxFrameBytes,
        maxConcurrent: this.agents.limits.maxConcurrent,
        sendsPerMinute: this.agents.limits.sendsPerMinute,
      },
    });
  }

  /**
   * The caller of `token`, or undefined once access was refused (and the socket closed). A
   * visitor's socket stays theirs: `visitor` keeps their embed, for its limits and closing.
   */
  private async resolve(token: string): Promise<ChatCaller | undefined> {
    try {
      const caller = socketCaller(await this.ctx.services.callers.resolve(['user', 'visitor'], token));
      if (caller.kind === 'visitor') {
        if (this.visitor && this.visitor.uid !== caller.uid) {
          throw socketAccountChanged();
        }
        this.visitor = caller;
        return caller;
      }
      if (this.visitor) throw socketAccountChanged();
      return caller;
    } catch (err) {
      this.deny(err);
      return undefined;
    }
  }

  /** Tells why access is refused, then closes: 4403 when the account lost access, else 4401. */
  private deny(err: unknown): void {
    const forbidden = err instanceof AppError && err.code === 'FORBIDDEN';
    const message = err instanceof AppError ? err.message : 'Invalid token';
    this.error(forbidden ? 'FORBIDDEN' : 'UNAUTHENTICATED', message);
    this.close(
      forbidden ? WsCloseCodes.forbidden : WsCloseCodes.unauthenticated,
      forbidden ? 'Forbidden' : 'Unauthenticated',
    );
  }

  /**
   * The caller as of now: the token is checked again (expiry, session, account state — cached
   * and invalidated on change), so a revoked account cannot act even before its socket is closed.
   */
  private async currentCaller(): Promise<ChatCaller | undefined> {
    const caller = await this.resolve(this.token);
    if (caller) this.caller = caller;
    return caller;
  }

  /** Re-checks access after an account change; closes the socket when it is gone. */
  async recheck(): Promise<void> {
    if (this.phase !== 'ready') return;
    await this.currentCaller();
  }

  /** A fresh token for the same account (the old one is about to expire). */
  private async reauthenticate(token: string): Promise<void> {
    const caller = await this.resolve(token);
    if (!caller) return;
    if (caller.uid !== this.caller?.uid) {
      this.error('UNAUTHENTICATED', 'A socket cannot change accounts; reconnect instead');
      this.close(WsCloseCodes.unauthenticated, 'Account changed');
      return;
    }
    this.token = token;
    this.caller = caller;
    this.sendReady();
  }

  /**
   * A visitor's message: always to the embed's santito (or the domain's default model), with the
   * embed's parameters, within its limits, and counted for the Admin screen.
   */
  private async visitorSend(
    visitor: VisitorCaller,
    frame: Extract<ClientFrame, { type: 'chat.send' }>,
  ): Promise<void> {
    authorizeFrameAttachments(visitor, frame);
    await this.ctx.services.visitors.admitMessage(visitor, this.ip);
    await this.agents.send(visitor, sendAsAllowed(visitor, frame));
    await this.ctx.services.visitors.count(visitor.virtualAccount.id, {
      messages: 1,
      ...(frame.chatId === null ? { chats: 1 } : {}),
    });
  }

  private async dispatch(frame: ClientFrame): Promise<void> {
    if (this.phase !== 'ready') return;
    const requestId = 'requestId' in frame ? frame.requestId : undefined;
    const chatId = 'chatId' in frame && typeof frame.chatId === 'string' ? frame.chatId : undefined;
    try {
      if (frame.type === 'ping') {
        this.send({ type: 'pong', ...(frame.id ? { id: frame.id } : {}) });
        return;
      }
      if (frame.type === 'auth') {
        await this.reauthenticate(frame.token);
        return;
      }
      const caller = await this.currentCaller();
      if (!caller) return;
      const visitor = caller.kind === 'visitor' ? caller : undefined;
      switch (frame.type) {
        case 'chat.send':
          if (visitor) return await this.visitorSend(visitor, frame);
          return await this.agents.send(caller, frame);
        case 'chat.regenerate':
          if (visitor) await this.ctx.services.visitors.admitMessage(visitor, this.ip);
          return await this.agents.regenerate(caller, frame);
        case 'chat.edit':
          authorizeFrameAttachments(caller, frame);
          if (visitor) await this.ctx.services.visitors.admitMessage(visitor, this.ip);
          return await this.agents.edit(caller, frame);
        case 'chat.stop':
          return await this.agents.stop(caller, frame);
        case 'chat.subscribe':
          return await this.agents.subscribe(caller, frame, (f) => this.send(f));
        case 'tool.approve':
          return await this.agents.approve(caller, frame);
        default:
          return assertNever(frame);
      }
    } catch (err) {
      this.send({
        type: 'error',
        ...(requestId ? { requestId } : {}),
        ...(chatId ? { chatId } : {}),
        ...toErrorFrame(err, this.ctx),
      });
    }
  }
}

function assertNever(x: never): never {
  throw new Error(`Unhandled frame ${JSON.stringify(x)}`);
}
