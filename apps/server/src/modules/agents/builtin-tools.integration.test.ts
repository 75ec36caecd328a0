import { type Citation, type MessagePart, ToolListSchema, ToolPolicySchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { startWebStandin, type WebStandin } from '../../test/web-standin.ts';

// The built-in tools (docs/ARCHITECTURE.md#built-in-tools) on the tool loop: web search over the
// three protocols, page reading through the SSRF guard, the results cited under the answer.

let web: WebStandin;
const { the, connect, rid, exchange, waitForStored } = useAgentsSuite({
  allow: async () => {
    web = await startWebStandin();
    return [`127.0.0.1:${web.port}`];
  },
});
afterAll(async () => {
  await web?.close();
});
// The extraction thread loads its HTML reader on the first page it is given: seconds on a loaded
// machine, which these tests, about what the tools answer, would otherwise spend inside an answer's
// deadline.
beforeAll(async () => {
  await the.t.ctx.services.knowledge.ingest.extractor.article(
    the.dom.domain.id,
    '<html><body><article><p>Warm.</p></article></body></html>',
    'http://127.0.0.1/warm',
  );
});

async function api(who: TestUser, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) {
  return the.t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function setSearch(webSearch: object | null, who: TestUser = the.admin) {
  return api(who, 'PUT', '/api/v1/settings/tools', { rules: [], userServers: false, webSearch });
}

async function santito(tools: string[]): Promise<string> {
  const res = await api(the.admin, 'POST', '/api/v1/agent', { name: `Researcher ${rid()}`, tools });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

const toolParts = (parts: MessagePart[] | null | undefined) =>
  (parts ?? []).filter((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

/** What the model read back for each tool call, in order (the last step holds them all). */
const toolResults = () => {
  const body = the.fx.chatRequests().at(-1)?.body as
    | { messages?: Array<{ role: string; content: unknown }> }
    | undefined;
  return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
};

describe('web search settings', () => {
  it('an Admin sets SearXNG, then Brave with a sealed key that is never shown, and turns it off', async () => {
    const searx = await setSearch({ provider: 'searxng', url: web.searxngUrl });
    expect(searx.statusCode, searx.body).toBe(200);
    expect(ToolPolicySchema.parse(searx.json()).webSearch).toEqual({
      provider: 'searxng',
      url: web.searxngUrl,
      hasApiKey: false,
    });

    // Brave needs a key; without one nothing changes.
    const keyless = await setSearch({ provider: 'brave' });
    expect(keyless.statusCode).toBe(400);
    expect(JSON.stringify(keyless.json())).toContain('webSearch.apiKey');
    const still = await api(the.admin, 'GET', '/api/v1/settings/tools');
    expect(ToolPolicySchema.parse(still.json()).webSearch?.provider).toBe('searxng');

    const brave = await setSearch({
      provider: 'brave',
      apiKey: web.apiKey,
      url: `${web.origin}/brave/res/v1/web/search`,
    });
    expect(brave.statusCode, brave.body).toBe(200);
    expect(ToolPolicySchema.parse(brave.json()).webSearch).toMatchObject({
      provider: 'brave',
      hasApiKey: true,
    });
    // The key is kept when the policy is saved again without it.
    const again = await setSearch({ provider: 'brave', url: `${web.origin}/brave/res/v1/web/search` });
    expect(ToolPolicySchema.parse(again.json()).webSearch?.hasApiKey).toBe(true);
    for (const body of [
      brave.body,
      again.body,
      (await api(the.admin, 'GET', '/api/v1/settings/tools')).body,
    ]) {
      expect(body).not.toContain(web.apiKey);
    }
    const audits = await the.t.ctx.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.action, 'tools.policy.update'), eq(auditEntries.domainId, the.dom.domain.id)),
      );
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits)).not.toContain(web.apiKey);

    const off = await setSearch(null);
    expect(ToolPolicySchema.parse(off.json()).webSearch).toBeNull();
  });

  it('refuses a private address not allowed, and anyone but an Admin of the domain', async () => {
    const blocked = await setSearch({ provider: 'searxng', url: 'http://10.1.2.3/searxng' });
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json()).toMatchObject({
      error: { details: [{ path: 'webSearch.url', code: 'url_blocked' }] },
    });
    const editor = await makeUser(the.t.ctx, { domain: the.dom, role: 'Editor' });
    for (const who of [the.alice, editor]) {
      expect((await setSearch({ provider: 'searxng', url: web.searxngUrl }, who)).statusCode).toBe(403);
      expect((await api(who, 'GET', '/api/v1/settings/tools')).statusCode).toBe(403);
    }
    const theirs = await api(the.outsider, 'PUT', `/api/v1/settings/tools?domain=${the.dom.domain.id}`, {
      rules: [],
      userServers: false,
      webSearch: { provider: 'searxng', url: web.searxngUrl },
    });
    expect([403, 404]).toContain(theirs.statusCode);
    expect(
      ToolPolicySchema.parse((await api(the.admin, 'GET', '/api/v1/settings/tools')).json()).webSearch,
    ).toBeNull();
  });

  it('lists the built-ins for the santito editor, web search unavailable until it is set up', async () => {
    const list = async () =>
      ToolListSchema.parse((await api(the.alice, 'GET', '/api/v1/agent/tools')).json()).builtins;
    expect(await list()).toEqual([
      {
        ref: 'builtin:web_search',
        name: 'web_search',
        readOnly: true,
        decision: 'allow',
        unavailable: 'not_configured',
      },
      { ref: 'builtin:fetch_page', name: 'fetch_page', readOnly: true, decision: 'allow', unavailable: null },
      {
        ref: 'builtin:knowledge_search',
        name: 'knowledge_search',
        readOnly: true,
        decision: 'allow',
        unavailable: null,
      },
      // No provider of the domain lists an image model; no Code Interpreter API here at all.
      {
        ref: 'builtin:generate_image',
        name: 'generate_image',
        readOnly: false,
        decision: 'ask',
        unavailable: 'not_configured',
      },
    ]);
    await setSearch({ provider: 'searxng', url: web.searxngUrl });
    expect((await list())[0]?.unavailable).toBeNull();
    // A santito may name built-ins; a made-up one is refused.
    const bad = await api(the.admin, 'POST', '/api/v1/agent', { name: 'Bad', tools: ['builtin:teleport'] });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a research answer', () => {
  it('searches, reads two pages and answers with numbered citations that open those pages', async () => {
    expect((await setSearch({ provider: 'searxng', url: web.searxngUrl })).statusCode).toBe(200);
    const agentId = await santito(['builtin:web_search', 'builtin:fetch_page']);
    const heat = `${web.origin}/pages/heat-pumps`;
    const insulation = `${web.origin}/pages/insulation`;
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [{ name: 'web_search', arguments: JSON.stringify({ query: 'heat pump cold climate' }) }],
      },
      {
        text: '',
        toolCalls: [
          { name: 'fetch_page', arguments: JSON.stringify({ url: heat }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/insulation` }) },
        ],
      },
      { text: 'Heat pumps work in the cold [1], but insulate first [2].' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Is a heat pump worth it where winters are cold?' });
    expect(r.done.status).toBe('complete');

    // The model was offered the built-ins under their own names, and read numbered results.
    const first = the.fx.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> };
    expect(first.tools?.map((t) => t.function.name).sort()).toEqual(['fetch_page', 'web_search']);
    expect(web.searches).toContainEqual({ provider: 'searxng', query: 'heat pump cold climate', key: null });
    const [results, page1, page2] = toolResults();
    expect(results).toContain(`[1] Heat pumps in cold climates\n${heat}`);
    expect(results).toContain(`[2] Insulation first\n${insulation}`);
    expect(results).not.toContain('<strong>');
    // Pages come back as their article, in Markdown, numbered as their search result was.
    expect(page1).toMatch(/^\[1\] Heat pumps in cold climates\n/);
    expect(page1).toContain('coefficient of performance above 2');
    expect(page1).not.toContain('Cookie settings');
    expect(page1).toContain(`(${web.origin}/pages/related)`);
    expect(page2).toMatch(/^\[2\] Insulation first\n/);

    const expected: Citation[] = [
      { title: 'Heat pumps in cold climates', url: heat, sourceId: 'web' },
      { title: 'Insulation first', url: insulation, sourceId: 'web' },
    ];
    expect(r.done.citations).toEqual(expected);
    const row = await waitForStored(r.assistant.messageId);
    expect(row?.citations).toEqual(expected);
    // The export carries them: numbered, linking the pages.
    const md = await api(the.alice, 'GET', `/api/v1/chats/${r.chatId}/export?format=md&locale=en`);
    expect(md.statusCode).toBe(200);
    expect(md.body).toContain(`1. [Heat pumps in cold climates](${heat})`);
    expect(md.body).toContain(`2. [Insulation first](${insulation})`);
    // The fixture numbers calls afresh each step (call_fixture_0 twice): ids are made unique.
    const ids = toolParts(row?.parts).map((p) => p.toolCallId);
    expect(new Set(ids).size).toBe(3);
    expect(toolResults().length).toBe(3);
    expect(toolParts(row?.parts).map((p) => [p.tool, p.status, p.title])).toEqual([
      ['builtin:web_search', 'done', 'Web search'],
      ['builtin:fetch_page', 'done', 'Read a page'],
      ['builtin:fetch_page', 'done', 'Read a page'],
    ]);
    // Read-only built-ins run without asking, and are audited like any tool.
    await expect
      .poll(async () =>
        (
          await the.t.ctx.db
            .select()
            .from(auditEntries)
            .where(and(eq(auditEntries.action, 'tool.call'), eq(auditEntries.actorId, the.alice.user.id)))
        ).map((a) => a.targetId),
      )
      .toEqual(expect.arrayContaining(['builtin:web_search', 'builtin:fetch_page']));
  });

  it('searches with Brave and Tavily, each with its key', async () => {
    const agentId = await santito(['builtin:web_search']);
    for (const provider of ['brave', 'tavily'] as const) {
      const url =
        provider === 'brave' ? `${web.origin}/brave/res/v1/web/search` : `${web.origin}/tavily/search`;
      expect((await setSearch({ provider, apiKey: web.apiKey, url })).statusCode).toBe(200);
      the.fx.reset();
      the.fx.enqueue(
        {
          text: '',
          toolCalls: [{ name: 'web_search', arguments: JSON.stringify({ query: `${provider} query` }) }],
        },
        { text: 'Found it [1].' },
      );
      const r = await exchange(await connect(the.bob), { agentId, content: 'Search please' });
      expect(r.done.status).toBe('complete');
      expect(web.searches.at(-1)).toEqual({ provider, query: `${provider} query`, key: web.apiKey });
      expect(toolResults()[0]).toContain('[1] Heat pumps in cold climates');
      expect(r.done.citations?.[0]?.url).toBe(`${web.origin}/pages/heat-pumps`);
    }
    // A key the service refuses: the step fails in words, the answer goes on.
    expect(
      (await setSearch({ provider: 'tavily', apiKey: 'wrong', url: `${web.origin}/tavily/search` }))
        .statusCode,
    ).toBe(200);
    the.fx.reset();
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'web_search', arguments: '{"query":"x"}' }] },
      { text: 'Search is failing.' },
    );
    const r = await exchange(await connect(the.bob), { agentId, content: 'Search again' });
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]).toMatchObject({
      status: 'error',
      output: expect.stringContaining('refused the API key'),
    });
    expect(row?.citations ?? []).toEqual([]);
  });

  it('reads pages only within the limits: a redirect to a private address, a long page, an image', async () => {
    const agentId = await santito(['builtin:fetch_page']);
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/to-metadata` }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/long` }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/image.png` }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/moved` }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: 'file:///etc/passwd' }) },
          { name: 'fetch_page', arguments: JSON.stringify({ url: 'http://10.0.0.7/admin' }) },
        ],
      },
      { text: 'Some pages could not be read.' },
    );
    const r = await exchange(await connect(the.alice), { agentId, content: 'Read these' });
    const row = await waitForStored(r.assistant.messageId);
    const [metadata, long, image, moved, file, privateHost] = toolParts(row?.parts);
    expect(metadata).toMatchObject({
      status: 'error',
      output: expect.stringContaining('may not be reached'),
    });
    expect(long?.status).toBe('done');
    expect(long?.output).toContain('[Output cut');
    expect(image).toMatchObject({ status: 'error', output: expect.stringContaining('image/png') });
    // A redirect within the allowed site is followed, and the page is cited where it ended.
    expect(moved).toMatchObject({
      status: 'done',
      output: expect.stringContaining('Heat pumps in cold climates'),
    });
    expect(file).toMatchObject({ status: 'error', output: 'Only http and https pages can be read.' });
    expect(privateHost).toMatchObject({
      status: 'error',
      output: expect.stringContaining('may not be reached'),
    });
    expect(row?.citations?.map((c) => c.url)).toEqual([
      `${web.origin}/pages/long`,
      `${web.origin}/pages/heat-pumps`,
    ]);
  });

  it('gives chats without a santito the domain’s default tools', async () => {
    const bad = await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [],
      userServers: false,
      defaultTools: ['builtin:fetch_page', 'mcp:nope:*'],
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('mcp:nope:*');
    const put = await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [],
      userServers: false,
      defaultTools: ['builtin:fetch_page'],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ToolPolicySchema.parse(put.json()).defaultTools).toEqual(['builtin:fetch_page']);
    // Saved again without them, they stay.
    const again = await api(the.admin, 'PUT', '/api/v1/settings/tools', { rules: [], userServers: false });
    expect(ToolPolicySchema.parse(again.json()).defaultTools).toEqual(['builtin:fetch_page']);

    the.fx.enqueue(
      {
        text: '',
        toolCalls: [
          { name: 'fetch_page', arguments: JSON.stringify({ url: `${web.origin}/pages/insulation` }) },
        ],
      },
      { text: 'Insulate first [1].' },
    );
    const r = await exchange(await connect(the.bob), { content: 'What should I do first?' });
    expect(r.done.status).toBe('complete');
    const first = the.fx.chatRequests()[0]?.body as { tools?: Array<{ function: { name: string } }> };
    expect(first.tools?.map((t) => t.function.name)).toEqual(['fetch_page']);
    expect(r.done.citations?.[0]?.title).toBe('Insulation first');
    await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [],
      userServers: false,
      defaultTools: [],
    });
  });

  it('offers nothing the policy denies, nor web search once it is turned off', async () => {
    const agentId = await santito(['builtin:web_search', 'builtin:fetch_page']);
    await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [{ match: 'builtin:fetch_page', decision: 'deny' }],
      userServers: false,
      webSearch: null,
    });
    the.fx.enqueue({ text: 'No tools here.' });
    const r = await exchange(await connect(the.alice), { agentId, content: 'Anything?' });
    expect(r.done.status).toBe('complete');
    expect((the.fx.chatRequests()[0]?.body as { tools?: unknown } | undefined)?.tools).toBeUndefined();
    expect(the.fx.chatRequests()).toHaveLength(1);
  });
});
