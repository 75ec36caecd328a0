import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import {
  LoginSubmitResponseSchema,
  type RuntimeConfig,
  RuntimeConfigSchema,
  type ServerFrame,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/src/db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../server/src/test/agents-app.ts';
import { makeUser, type TestUser } from '../../server/src/test/factories.ts';
import { PendingSignIns } from './auth/pending.ts';
import {
  exchangeCode,
  isFinalRefreshError,
  loginPageUri,
  refreshTokens,
  revokeSession,
} from './auth/server.ts';
import { type StoredSession, sessionFromExchange } from './auth/session.ts';
import { AgentsClient } from './chat/agents.ts';
import { chatApi } from './chat/api.ts';
import { StreamResume } from './chat/resume.ts';

// The extension's own modules (sign-in, refresh, revocation, websocket chat, REST) against the real server.
const WEB = 'http://localhost:3999'; // the test app's PUBLIC_URL: where the login page lives
let a: AgentsTestApp;
let config: RuntimeConfig;
let user: TestUser;

beforeAll(async () => {
  a = await startAgentsTestApp({ script: { text: 'Olá do **fixture**.' } });
  const base = `http://127.0.0.1:${(a.t.app.server.address() as AddressInfo).port}`;
  const served = RuntimeConfigSchema.parse(await (await fetch(`${base}/runtime-config.json`)).json());
  // The app believes it lives at PUBLIC_URL; the extension reaches it where it listens.
  config = {
    ...served,
    codeAssistUrl: base,
    chatsManagerUrl: base,
    accountManagerUrl: base,
    agentsWsUrl: a.wsUrl,
    identity: { ...served.identity, baseUrl: `${base}/identity` },
  };
  user = await makeUser(a.t.ctx, { domain: a.domain, displayName: 'Ana Editor' });
});

afterAll(async () => {
  await a?.close();
});

/** What the web app's login page does for a signed-in user: ask code assist for a code. */
async function handoff(challenge: string, state: string): Promise<URLSearchParams> {
  const res = await fetch(`${config.codeAssistUrl}/api/v1/user_management/login_submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: WEB },
    body: JSON.stringify({
      idToken: user.idToken,
      refreshToken: user.refreshToken,
      state,
      code_challenge: challenge,
      redirect_uri: `${WEB}/auth/login`,
      email: user.user.email,
    }),
  });
  expect(res.status).toBe(200);
  return new URL(LoginSubmitResponseSchema.parse(await res.json()).redirect_uri).searchParams;
}

async function signIn(): Promise<StoredSession> {
  const pending = new PendingSignIns();
  const sign = pending.start();
  const result = pending.complete(await handoff(sign.challenge, sign.state));
  if (!result.ok) throw new Error(result.reason);
  const tokens = await exchangeCode(config, {
    code: result.code,
    code_verifier: result.verifier,
    redirect_uri: loginPageUri(WEB),
  });
  return sessionFromExchange(WEB, tokens, Date.now());
}

function chatOnce(client: AgentsClient, frames: ServerFrame[], content: string): Promise<void> {
  const done = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (frames.some((f) => f.type === 'message.done')) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  client.send({ type: 'chat.send', requestId: 'r1', chatId: null, content });
  return done;
}

describe('the extension against the real server', () => {
  it('signs in with PKCE and gets an editor session named after the user', async () => {
    const session = await signIn();
    expect(session).toMatchObject({ uid: user.uid, email: user.user.email, name: 'Ana Editor' });
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    const sessions = await a.t.app.inject({
      method: 'GET',
      url: '/api/v1/settings/sessions',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect(sessions.statusCode, sessions.body).toBe(200);
    expect(sessions.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'editor', name: 'VS Code', current: true })]),
    );
  });

  it('refuses the code of a sign-in whose verifier it does not hold', async () => {
    const pending = new PendingSignIns();
    const mine = pending.start();
    const other = new PendingSignIns().start();
    const query = await handoff(other.challenge, mine.state);
    const result = pending.complete(query);
    if (!result.ok) throw new Error(result.reason);
    await expect(
      exchangeCode(config, {
        code: result.code,
        code_verifier: result.verifier,
        redirect_uri: loginPageUri(WEB),
      }),
    ).rejects.toMatchObject({ status: 400, code: 'INVALID_GRANT' });
  });

  it('renews the tokens through the identity service, rotating the refresh token', async () => {
    const session = await signIn();
    const renewed = await refreshTokens(config, session.refreshToken);
    expect(renewed.user_id).toBe(user.uid);
    expect(renewed.refresh_token).not.toBe(session.refreshToken);
    // Once the new one is used, the old refresh token is spent: presenting it ends the session.
    const again = await refreshTokens(config, renewed.refresh_token);
    const replay = await refreshTokens(config, session.refreshToken).catch((e: unknown) => e);
    expect(isFinalRefreshError(replay)).toBe(true);
    const after = await refreshTokens(config, again.refresh_token).catch((e: unknown) => e);
    expect(isFinalRefreshError(after)).toBe(true);
  });

  it('chats over the agents websocket and finds the chat in the list', async () => {
    const session = await signIn();
    const frames: ServerFrame[] = [];
    const client = new AgentsClient({
      url: async () => config.agentsWsUrl,
      token: async () => session.idToken,
      onUnauthenticated: async () => false,
      onFrame: (f) => frames.push(f),
    });
    try {
      await chatOnce(client, frames, 'Oi?');
    } finally {
      client.dispose();
    }
    const text = frames.flatMap((f) => (f.type === 'message.delta' ? [f.delta] : [])).join('');
    expect(text).toBe('Olá do **fixture**.');
    expect(frames.find((f) => f.type === 'message.done')).toMatchObject({ status: 'complete' });
    const created = frames.find((f) => f.type === 'chat.created');
    const chats = await chatApi(
      async () => config,
      async () => session.idToken,
    ).listChats();
    expect(chats.map((c) => c.chatId)).toContain(created?.type === 'chat.created' ? created.chat.chatId : '');
  });

  it('after sign-out revokes the session, neither its refresh token nor its websocket works', async () => {
    const session = await signIn();
    await revokeSession(config, session.refreshToken);
    expect(
      isFinalRefreshError(await refreshTokens(config, session.refreshToken).catch((e: unknown) => e)),
    ).toBe(true);
    let unauthenticated = 0;
    const client = new AgentsClient({
      url: async () => config.agentsWsUrl,
      token: async () => session.idToken,
      onUnauthenticated: async () => {
        unauthenticated++;
        return false;
      },
      onFrame: () => {},
    });
    client.send({ type: 'chat.send', requestId: 'r2', chatId: null, content: 'still there?' });
    await expect.poll(() => unauthenticated, { timeout: 10_000 }).toBe(1);
    client.dispose();
  });

  it('an answer cut off by a dropped connection goes on after the reconnect, or is read back if it ended', async () => {
    const session = await signIn();
    // A TCP hop between the extension and the server that the test can cut, as a network would.
    const cut = new Set<Socket>();
    const target = new URL(config.agentsWsUrl);
    const hop = createServer((inbound) => {
      const outbound = connect(Number(target.port), target.hostname);
      cut.add(inbound).add(outbound);
      inbound.pipe(outbound).pipe(inbound);
      const drop = () => {
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on('error', drop).on('close', drop);
      outbound.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
    const hopUrl = `ws://127.0.0.1:${(hop.address() as AddressInfo).port}${target.pathname}`;
    const dropAll = () => {
      for (const s of cut) s.destroy();
      cut.clear();
    };

    const frames: ServerFrame[] = [];
    const reloaded: string[] = [];
    let resume: StreamResume | undefined;
    const client = new AgentsClient({
      url: async () => hopUrl,
      token: async () => session.idToken,
      onUnauthenticated: async () => false,
      onFrame: (f) => {
        frames.push(f);
        resume?.onFrame(f);
      },
      onStatus: (connected) => resume?.onStatus(connected),
      // The product backs off up to 30 s; while the hop is closed a loaded machine reaches long waits,
      // and what is tested here is what happens once a connection is back, not the backoff.
      reconnectDelay: () => 200,
    });
    resume = new StreamResume({ send: (f) => client.send(f), reload: (chatId) => reloaded.push(chatId) });
    const words = Array.from({ length: 40 }, (_, i) => `palavra${i}`);
    try {
      // 1. Cut mid-answer: the answer goes on where it was, nothing repeated, nothing lost.
      a.fx.enqueue({ text: words.join(' '), delayMs: 40 });
      client.send({ type: 'chat.send', requestId: 'r3', chatId: null, content: 'Conte até quarenta' });
      await expect.poll(() => frames.filter((f) => f.type === 'message.delta').length).toBeGreaterThan(3);
      dropAll();
      await expect.poll(() => frames.some((f) => f.type === 'message.done'), { timeout: 20_000 }).toBe(true);
      const snapshot = frames.find((f) => f.type === 'message.snapshot');
      expect(snapshot?.type).toBe('message.snapshot');
      const at = frames.indexOf(snapshot as ServerFrame);
      const after = frames.slice(at + 1).flatMap((f) => (f.type === 'message.delta' ? [f.delta] : []));
      const seen = snapshot?.type === 'message.snapshot' ? snapshot.message.content : '';
      expect(`${seen}${after.join('')}`).toBe(words.join(' '));
      expect(frames.find((f) => f.type === 'message.done')).toMatchObject({ status: 'complete' });
      expect(reloaded).toEqual([]);

      // 2. Cut, and the answer ends while the extension is away: it reads the stored answer back.
      const chat = frames.find((f) => f.type === 'chat.created');
      const chatId = chat?.type === 'chat.created' ? chat.chat.chatId : '';
      frames.length = 0;
      // Slow enough that the cut lands mid-answer on a busy machine (at 30 ms a word the answer
      // could end before the cut, leaving nothing to read back), short enough to end while away.
      a.fx.enqueue({ text: 'uma resposta curta que termina enquanto a extensão está fora', delayMs: 150 });
      const port = (hop.address() as AddressInfo).port;
      hop.close();
      client.send({ type: 'chat.send', requestId: 'r4', chatId, content: 'E agora?' });
      await expect.poll(() => frames.some((f) => f.type === 'message.delta')).toBe(true);
      // Nothing listens on the hop for a while: the answer ends meanwhile — stored as ended, not
      // only sent by the model (a reconnect in between would rightly resume the stream instead).
      dropAll();
      await expect.poll(() => a.fx.activeStreams(), { timeout: 10_000 }).toBe(0);
      await expect
        .poll(
          async () => {
            const rows = await a.t.ctx.db.select().from(messages).where(eq(messages.chatId, chatId));
            return rows.some((m) => m.role === 'assistant' && m.status === 'streaming');
          },
          { timeout: 10_000 },
        )
        .toBe(false);
      await new Promise<void>((resolve) => hop.listen(port, '127.0.0.1', resolve));
      await expect.poll(() => reloaded, { timeout: 20_000 }).toEqual([chatId]);
      expect(frames.some((f) => f.type === 'message.done')).toBe(false);
    } finally {
      client.dispose();
      dropAll();
      hop.close();
    }
  });
});
