import { type MessagePart, ToolListSchema } from '@assistente/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { multipartFile } from '../../test/chats.ts';
import { type CodeStandin, startCodeStandin } from '../../test/code-interpreter-standin.ts';
import { makeDomain, makeUser } from '../../test/factories.ts';
import { useFixtureModel } from '../../test/fixture-model.ts';
import { barChartPng } from '../../test/png.ts';

// `code_interpreter` (docs/ARCHITECTURE.md#built-in-tools): code runs at a Code Interpreter API
// with the chat's files; the files it makes come back as the chat's attachments.

let code: CodeStandin;
/** Each domain's storage here: room for a few charts, not for a large file and a chart. */
const QUOTA = 50_000;
const { the, connect, rid, exchange, waitForStored, restChat, attachAll } = useAgentsSuite({
  allow: async () => {
    code = await startCodeStandin();
    return [];
  },
  config: () => ({
    CODE_INTERPRETER_URL: code.url,
    CODE_INTERPRETER_API_KEY: code.apiKey,
    STORAGE_QUOTA_BYTES: String(QUOTA),
  }),
});
afterAll(async () => {
  await code?.close();
});

const SALES = Buffer.from('month,sales\njan,120\nfeb,90\nmar,150\n');
const PLOT =
  "import pandas as pd\nd = pd.read_csv('sales.csv')\nprint(d.sales.sum())\nd.plot.bar()\nplt.savefig('chart.png')";

async function santito(extra: object = {}): Promise<string> {
  const res = await the.t.app.inject({
    method: 'POST',
    url: '/api/v1/agent',
    headers: the.admin.headers,
    payload: { name: `Analyst ${rid()}`, tools: ['builtin:code_interpreter'], ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

async function allowCode() {
  const res = await the.t.app.inject({
    method: 'PUT',
    url: '/api/v1/settings/tools',
    headers: the.admin.headers,
    payload: { rules: [{ match: 'builtin:code_interpreter', decision: 'allow' }], userServers: false },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const toolParts = (parts: MessagePart[] | null | undefined) =>
  (parts ?? []).filter((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

describe('the code interpreter', () => {
  it('is listed for the santito editor, and asks before running by default', async () => {
    const list = ToolListSchema.parse(
      (
        await the.t.app.inject({ method: 'GET', url: '/api/v1/agent/tools', headers: the.alice.headers })
      ).json(),
    );
    expect(list.builtins.find((b) => b.name === 'code_interpreter')).toEqual({
      ref: 'builtin:code_interpreter',
      name: 'code_interpreter',
      readOnly: false,
      decision: 'ask',
      unavailable: null,
    });
  });

  it('runs the code with the chat’s CSV elsewhere, and the chart comes back as the chat’s attachment', async () => {
    await allowCode();
    const agentId = await santito();
    const chat = await restChat(the.alice, { agentId });
    const [csvId] = await attachAll(chat.chatId, [['sales.csv', 'text/csv', SALES]]);
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ lang: 'py', code: PLOT }) }],
      },
      { text: 'Sales were 360 in total; the chart is above.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, {
      chatId: chat.chatId,
      content: 'Chart my sales',
      attachments: csvId ? [csvId] : [],
    });
    expect(r.done.status).toBe('complete');

    // The API got the file and the code, for this person and chat.
    expect(code.uploads).toContain('sales.csv');
    expect(code.runs.at(-1)).toMatchObject({
      lang: 'py',
      code: PLOT,
      files: ['sales.csv'],
      userId: the.alice.user.id,
      entityId: chat.chatId,
    });
    const result = await s.next('tool.result', (f) => f.messageId === r.assistant.messageId);
    expect(result.status).toBe('done');
    expect(result.output).toContain('sales.csv: 3 rows');
    expect(result.output).toContain('total: 360');
    expect(result.output).toContain('chart.png');
    const [chart] = result.files ?? [];
    expect(chart).toMatchObject({ name: 'chart.png', contentType: 'image/png', chatId: chat.chatId });

    // Stored on the step, and the person can download it; nobody else can.
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]?.files).toEqual([chart]);
    const file = await the.t.app.inject({ method: 'GET', url: chart?.url ?? '', headers: the.alice.headers });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
    for (const who of [the.bob, the.outsider]) {
      expect(
        (await the.t.app.inject({ method: 'GET', url: chart?.url ?? '', headers: who.headers })).statusCode,
      ).toBe(404);
    }
    // Kept with the answer: it cannot be deleted as an unsent draft could.
    const del = await the.t.app.inject({
      method: 'DELETE',
      url: chart?.url ?? '',
      headers: the.alice.headers,
    });
    expect(del.statusCode).toBe(409);
    // The export links it with the answer.
    const md = await the.t.app.inject({
      method: 'GET',
      url: `/api/v1/chats/${chat.chatId}/export?format=md&locale=en`,
      headers: the.alice.headers,
    });
    expect(md.body).toContain(`- [chart.png](`);
    expect(md.body).toContain(chart?.url ?? 'missing');
    // The model read what the run printed, and that the chart is shown already.
    const last = the.fx.chatRequests().at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    expect(String(last.messages.find((m) => m.role === 'tool')?.content)).toContain(
      'already shown to the person',
    );
  });

  it('keeps only what uploads may hold: a type not allowed, or past the domain’s quota, is not kept, and says so', async () => {
    // Another domain, whose storage is nearly full.
    const who = await makeUser(the.t.ctx, {
      domain: await makeDomain(the.t.ctx, { premium: true }),
      role: 'Admin',
    });
    await useFixtureModel(the.t.app, who.headers, the.fx.baseUrl);
    const put = await the.t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/tools',
      headers: who.headers,
      payload: { rules: [{ match: 'builtin:*', decision: 'allow' }], userServers: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    const made = await the.t.app.inject({
      method: 'POST',
      url: '/api/v1/agent',
      headers: who.headers,
      payload: { name: `Analyst ${rid()}`, tools: ['builtin:code_interpreter'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const agentId = (made.json() as { _id: string })._id;
    const chat = await restChat(who, { agentId });
    const filler = await multipartFile(
      'notes.txt',
      'text/plain',
      Buffer.alloc(QUOTA - barChartPng([1]).length + 1, 'a'),
    );
    const up = await the.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat.chatId}/attachments`,
      headers: { ...who.headers, ...filler.headers },
      payload: filler.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const program = "open('tool.exe', 'wb').write(b'MZ')\nplt.savefig('chart.png')";
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ lang: 'py', code: program }) }],
      },
      { text: 'Nothing could be kept.' },
    );
    const r = await exchange(await connect(who), {
      chatId: chat.chatId,
      content: 'Make a chart and a program',
    });
    const row = await waitForStored(r.assistant.messageId);
    const [part] = toolParts(row?.parts);
    expect(part?.status, JSON.stringify(row)).toBe('done');
    expect(part?.files).toBeUndefined();
    expect(part?.output).toMatch(/chart\.png was not kept: .*used all of its file storage/);
    expect(part?.output).toContain('tool.exe was not kept');
  });

  it('a run that only fails is an error the model reads; a wrong key is said in words', async () => {
    await allowCode();
    const agentId = await santito();
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [
          {
            name: 'code_interpreter',
            arguments: JSON.stringify({ lang: 'py', code: "raise ValueError('x')" }),
          },
        ],
      },
      { text: 'The code failed.' },
    );
    const r = await exchange(await connect(the.alice), { agentId, content: 'Run it' });
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]).toMatchObject({
      status: 'error',
      output: expect.stringContaining('ValueError'),
    });

    // Bad input never reaches the API.
    const before = code.runs.length;
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ lang: 'cobol', code: 'x' }) }],
      },
      { text: 'Unsupported.' },
    );
    const bad = await exchange(await connect(the.alice), { agentId, content: 'Run cobol' });
    const badRow = await waitForStored(bad.assistant.messageId);
    expect(toolParts(badRow?.parts)[0]).toMatchObject({
      status: 'error',
      output: expect.stringContaining('`lang`'),
    });
    expect(code.runs.length).toBe(before);
  });

  it('asks the person first without a rule, and a visitor’s ask is a refusal', async () => {
    await the.t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/tools',
      headers: the.admin.headers,
      payload: { rules: [], userServers: false },
    });
    const agentId = await santito();
    const before = code.runs.length;
    the.fx.enqueue({
      text: '',
      toolCalls: [{ name: 'code_interpreter', arguments: JSON.stringify({ lang: 'py', code: 'print(1)' }) }],
    });
    const r = await exchange(await connect(the.bob), { agentId, content: 'Compute' });
    expect(r.done.status).toBe('awaiting_approval');
    expect(code.runs.length).toBe(before);
  });
});
