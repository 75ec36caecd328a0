import { type McpServer, type MessagePart, ToolListSchema, ToolPolicySchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, messages, usageEvents } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';
import { APPROVAL_WAIT_MS } from './sweep.ts';

let mcp: McpStandin;
const { the, connect, rid, exchange, waitForStored } = useAgentsSuite({
  allow: async () => {
    mcp = await startMcpStandin();
    return [`127.0.0.1:${mcp.port}`];
  },
});
afterAll(async () => {
  await mcp?.close();
});

let server: McpServer;
let viewer: TestUser;

async function api(who: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return the.t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function setPolicy(rules: Array<{ match: string; decision: 'allow' | 'ask' | 'deny' }>) {
  const res = await api(the.admin, 'PUT', '/api/v1/settings/tools', { rules, userServers: false });
  expect(res.statusCode, res.body).toBe(200);
}

/** A santito of the domain with every tool of the stand-in, made through the API. */
async function santitoWithTools(extra: object = {}): Promise<string> {
  const res = await api(the.admin, 'POST', '/api/v1/agent', {
    name: `Tools ${rid()}`,
    tools: [`mcp:${server.id}:*`],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

const toolParts = (parts: MessagePart[] | null | undefined) =>
  (parts ?? []).filter((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

beforeAll(async () => {
  viewer = await makeUser(the.t.ctx, { domain: the.dom, role: 'Viewer' });
  const res = await api(the.admin, 'POST', '/api/v1/integration/mcp', {
    displayName: 'Stand-in',
    url: mcp.url,
  });
  expect(res.statusCode, res.body).toBe(201);
  server = res.json() as McpServer;
  expect(server.tools.map((t) => t.name)).toContain('echo');
});

describe('the tool loop', () => {
  it('runs an allowed tool, feeds its result back, and keeps each step: parts, frames, ledger, audit', async () => {
    await setPolicy([{ match: `mcp:${server.id}:echo`, decision: 'allow' }]);
    const agentId = await santitoWithTools();
    the.fx.enqueue(
      { text: 'Let me check.', toolCalls: [{ name: 'echo', arguments: '{"text":"ping 42"}' }] },
      { text: 'The tool said ping 42.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Use the echo tool' });
    expect(r.done.status).toBe('complete');

    const call = await s.next('tool.call', (f) => f.messageId === r.assistant.messageId);
    expect(call).toMatchObject({
      tool: `mcp:${server.id}:echo`,
      needsApproval: false,
      input: { text: 'ping 42' },
    });
    expect(call.textBefore).toBe('Let me check.');
    const result = await s.next('tool.result', (f) => f.toolCallId === call.toolCallId);
    expect(result).toMatchObject({ status: 'done', output: 'ping 42' });

    // The model was offered the tool, then read its result in the next step.
    const [first, second] = the.fx.chatRequests().map((q) => q.body as Record<string, unknown>);
    expect(JSON.stringify(first?.tools)).toContain('"echo"');
    const toolMessage = ((second?.messages ?? []) as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === 'tool',
    );
    expect(toolMessage?.content).toBe('ping 42');

    const row = await waitForStored(r.assistant.messageId);
    expect(row?.content).toBe('Let me check.The tool said ping 42.');
    expect(row?.parts).toEqual([
      { type: 'text', text: 'Let me check.' },
      expect.objectContaining({ type: 'tool', status: 'done', output: 'ping 42', title: 'Stand-in · echo' }),
    ]);
    await expect
      .poll(async () =>
        (
          await the.t.ctx.db
            .select({ source: usageEvents.source })
            .from(usageEvents)
            .where(eq(usageEvents.userId, the.alice.user.id))
        )
          .map((e) => e.source)
          .sort(),
      )
      .toEqual(['chat', 'tool']);
    const auditOf = () =>
      the.t.ctx.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'tool.call'), eq(auditEntries.actorId, the.alice.user.id)));
    await expect.poll(async () => (await auditOf()).length).toBe(1);
    const audit = await auditOf();
    expect(audit[0]?.after).toMatchObject({ decision: 'allow', status: 'done' });
    // The input is kept as a hash, never as given.
    expect(JSON.stringify(audit[0])).not.toContain('ping 42');
  });

  it('asks by default: the answer pauses, stored, and goes on when allowed; "for this chat" asks no more', async () => {
    await setPolicy([]);
    const agentId = await santitoWithTools();
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"first"}' }] },
      { text: 'Done once.' },
    );
    const s = await connect(the.bob);
    const r = await exchange(s, { agentId, content: 'Echo please' });
    expect(r.done.status).toBe('awaiting_approval');
    const call = await s.next('tool.call', (f) => f.messageId === r.assistant.messageId);
    expect(call.needsApproval).toBe(true);
    expect(
      (await the.t.ctx.db.select().from(messages).where(eq(messages.id, r.assistant.messageId)))[0]?.status,
    ).toBe('awaiting_approval');
    expect(mcp.calls.filter((c) => c.args.text === 'first')).toHaveLength(0);

    // Another person cannot decide it.
    const intruder = await connect(the.alice);
    intruder.send({
      type: 'tool.approve',
      chatId: r.chatId,
      toolCallId: call.toolCallId,
      decision: 'allow',
      requestId: 'x',
    });
    expect((await intruder.next('error', (f) => f.requestId === 'x')).code).toBe('NOT_FOUND');

    const from = s.frames.length;
    s.send({
      type: 'tool.approve',
      chatId: r.chatId,
      toolCallId: call.toolCallId,
      decision: 'allow',
      remember: 'chat',
    });
    const snapshot = await s.next(
      'message.snapshot',
      (f) => f.message.messageId === r.assistant.messageId,
      10_000,
      from,
    );
    expect(snapshot.message.status).toBe('streaming');
    expect(await s.next('tool.result', (f) => f.toolCallId === call.toolCallId, 10_000, from)).toMatchObject({
      status: 'done',
      output: 'first',
    });
    const done = await s.next('message.done', (f) => f.messageId === r.assistant.messageId, 10_000, from);
    expect(done.status).toBe('complete');
    expect((await waitForStored(r.assistant.messageId))?.content).toBe('Done once.');

    // Deciding twice is refused.
    s.send({
      type: 'tool.approve',
      chatId: r.chatId,
      toolCallId: call.toolCallId,
      decision: 'deny',
      requestId: 'again',
    });
    expect((await s.next('error', (f) => f.requestId === 'again')).code).toBe('VALIDATION_FAILED');

    // Allowed for the chat: the next call runs at once.
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"second"}' }] },
      { text: 'Done twice.' },
    );
    const next = await exchange(s, { chatId: r.chatId, content: 'Again' });
    expect(next.done.status).toBe('complete');
    expect(mcp.calls.filter((c) => c.args.text === 'second')).toHaveLength(1);
  });

  it('a denied call is not run; the model reads that it was refused and answers', async () => {
    await setPolicy([{ match: 'mcp:*', decision: 'ask' }]);
    const agentId = await santitoWithTools();
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"never"}' }] },
      { text: 'Fine, no tool.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Try it' });
    const call = await s.next('tool.call', (f) => f.messageId === r.assistant.messageId);
    const from = s.frames.length;
    s.send({ type: 'tool.approve', chatId: r.chatId, toolCallId: call.toolCallId, decision: 'deny' });
    expect(
      (await s.next('message.done', (f) => f.messageId === r.assistant.messageId, 10_000, from)).status,
    ).toBe('complete');
    expect(mcp.calls.filter((c) => c.args.text === 'never')).toHaveLength(0);
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]).toMatchObject({ status: 'denied' });
    const last = the.fx.chatRequests().at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(JSON.stringify(last.messages.find((m) => m.role === 'tool'))).toContain('did not allow');
  });

  it('a denying rule wins over an allowing one: the model is never offered the tool', async () => {
    await setPolicy([
      { match: 'mcp:*', decision: 'allow' },
      { match: `mcp:${server.id}:ec*`, decision: 'deny' },
    ]);
    const agentId = await santitoWithTools();
    const s = await connect(the.alice);
    await exchange(s, { agentId, content: 'What tools?' });
    const offered = JSON.stringify(
      (the.fx.chatRequests()[0]?.body as { tools?: unknown } | undefined)?.tools,
    );
    expect(offered).toContain('lookup');
    expect(offered).not.toContain('"echo"');
  });

  it('Stop cancels a running tool at once', async () => {
    await setPolicy([{ match: 'mcp:*', decision: 'allow' }]);
    const agentId = await santitoWithTools();
    the.fx.enqueue({ text: '', toolCalls: [{ name: 'sleep', arguments: '{"ms":30000}' }] });
    const s = await connect(the.alice);
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, agentId, content: 'Sleep' });
    const call = await s.next('tool.call', () => true);
    const started = Date.now();
    s.send({ type: 'chat.stop', chatId: call.chatId });
    const done = await s.next('message.done', (f) => f.messageId === call.messageId);
    expect(done.status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(5_000);
    const row = await waitForStored(call.messageId);
    expect(toolParts(row?.parts)[0]).toMatchObject({ status: 'error' });
  });

  it('stops at maxSteps: the last step is offered no tools', async () => {
    await setPolicy([{ match: 'mcp:*', decision: 'allow' }]);
    const agentId = await santitoWithTools({ maxSteps: 2 });
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"a"}' }] },
      { text: 'Enough.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Loop' });
    expect(r.done.status).toBe('complete');
    const [first, second] = the.fx.chatRequests().map((q) => q.body as { tools?: unknown });
    expect(first?.tools).toBeDefined();
    expect(second?.tools).toBeUndefined();
  });

  it('an approval not given within 24 h is denied and the answer ends', async () => {
    await setPolicy([]);
    const agentId = await santitoWithTools();
    the.fx.enqueue({ text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"late"}' }] });
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Wait for me' });
    expect(r.done.status).toBe('awaiting_approval');
    await the.t.ctx.services.agents?.denyExpiredApprovals(Date.now() + APPROVAL_WAIT_MS + 1_000);
    const done = await s.next(
      'message.done',
      (f) => f.messageId === r.assistant.messageId && f.status === 'error',
    );
    expect(done.error?.message).toMatch(/24 hours/);
    const [row] = await the.t.ctx.db.select().from(messages).where(eq(messages.id, r.assistant.messageId));
    expect(row?.status).toBe('error');
    expect(toolParts(row?.parts)[0]?.status).toBe('denied');
  });
});

describe('tool policy and the tools people see', () => {
  it('Admins read and replace the policy; others cannot; a bad rule changes nothing', async () => {
    await setPolicy([{ match: 'mcp:*', decision: 'ask' }]);
    const got = await api(the.admin, 'GET', '/api/v1/settings/tools');
    expect(ToolPolicySchema.parse(got.json()).rules).toEqual([{ match: 'mcp:*', decision: 'ask' }]);
    expect((await api(viewer, 'GET', '/api/v1/settings/tools')).statusCode).toBe(403);
    expect(
      (await api(the.alice, 'PUT', '/api/v1/settings/tools', { rules: [], userServers: true })).statusCode,
    ).toBe(403);
    const bad = await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [{ match: 'rm -rf', decision: 'allow' }],
      userServers: false,
    });
    expect(bad.statusCode).toBe(400);
    // Another domain's Admin reads their own (default) policy, not this one.
    const theirs = await api(the.outsider, 'GET', '/api/v1/settings/tools');
    expect(ToolPolicySchema.parse(theirs.json())).toMatchObject({ rules: [], userServers: false });
    expect(
      ToolPolicySchema.parse((await api(the.admin, 'GET', '/api/v1/settings/tools')).json()).rules,
    ).toHaveLength(1);
  });

  it('lists the tools a person sees with the decision; another domain sees none of them', async () => {
    await setPolicy([{ match: `mcp:${server.id}:lookup`, decision: 'allow' }]);
    const mine = ToolListSchema.parse((await api(viewer, 'GET', '/api/v1/agent/tools')).json());
    expect(mine.tools.find((t) => t.name === 'lookup')).toMatchObject({ decision: 'allow', readOnly: true });
    expect(mine.tools.find((t) => t.name === 'echo')?.decision).toBe('ask');
    const theirs = ToolListSchema.parse((await api(the.outsider, 'GET', '/api/v1/agent/tools')).json());
    expect(theirs.tools.filter((t) => t.serverId === server.id)).toEqual([]);
  });

  it('a santito may only name its own domain’s servers', async () => {
    const stranger = await makeUser(the.t.ctx, {
      domain: await makeDomain(the.t.ctx, { premium: true }),
      role: 'Admin',
    });
    const res = await api(stranger, 'POST', '/api/v1/agent', {
      name: 'Borrower',
      tools: [`mcp:${server.id}:*`],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('tools');
    const malformed = await api(the.admin, 'POST', '/api/v1/agent', { name: 'Bad', tools: ['shell:rm'] });
    expect(malformed.statusCode).toBe(400);
  });
});
