import { ChatExportSchema, ChatSchema, MessageSchema } from '@assistente/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appendUserMessage } from '../../test/chats.ts';
import { useChatsSuite } from '../../test/chats-suite.ts';
import { makeChat, makeUser, type TestUser } from '../../test/factories.ts';

const { s, call, errorOf, createChat, flush, callerOf } = useChatsSuite();

describe('search', () => {
  let owner: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await makeUser(s.t.ctx);
    ids.report = (await makeChat(s.t.ctx, owner, { title: 'Relatório de Vendas' })).chat.id;
    ids.heart = (
      await makeChat(s.t.ctx, owner, {
        title: 'Saúde',
        messages: ['Como funciona o CORAÇÃO humano?', 'Ele bombeia…'],
      })
    ).chat.id;
    ids.code = (
      await makeChat(s.t.ctx, owner, {
        title: 'Código',
        messages: ['Explique', 'Use a função `reduce` do JavaScript para somar'],
      })
    ).chat.id;
    ids.none = (await makeChat(s.t.ctx, owner, { title: 'Outra coisa', messages: ['nada a ver'] })).chat.id;
    // Somebody else's chat with the same words never shows up.
    await makeChat(s.t.ctx, s.alice, { title: 'Relatório de vendas da Alice', messages: ['coração'] });
  });

  async function search(q: string): Promise<string[]> {
    const res = await call('GET', `/api/v1/chats?q=${encodeURIComponent(q)}`, owner);
    expect(res.statusCode).toBe(200);
    const items = z.array(ChatSchema).parse(res.json());
    expect(res.headers['x-total-count']).toBe(String(items.length));
    return items.map((c) => c.chatId).sort();
  }

  it('finds titles ignoring case and accents, by word prefix', async () => {
    expect(await search('relatorio')).toEqual([ids.report]);
    expect(await search('RELATÓRIO')).toEqual([ids.report]);
    expect(await search('vend')).toEqual([ids.report]);
    expect(await search('relat vendas')).toEqual([ids.report]);
    expect(await search('saude')).toEqual([ids.heart]);
  });

  it('finds message contents ignoring case and accents', async () => {
    expect(await search('coracao')).toEqual([ids.heart]);
    expect(await search('Coração')).toEqual([ids.heart]);
    expect(await search('funçao javascript')).toEqual([ids.code]);
    expect(await search('reduce')).toEqual([ids.code]);
  });

  it('every word must match; nothing matches nothing', async () => {
    expect(await search('coração vendas')).toEqual([]);
    expect(await search('zebra')).toEqual([]);
    expect(await search('!!! ???')).toEqual([]);
    expect(await search("o'brien \\ & | ! :*")).toEqual([]);
  });

  it('finds an answer once it has finished streaming, not while it streams', async () => {
    const { chat, messages: rows } = await makeChat(s.t.ctx, owner, {
      title: 'Em andamento',
      messages: ['?'],
    });
    const service = s.t.ctx.services.chats;
    const answer = await service.createAssistantMessage(chat.id, rows[0]?.id ?? null, null);
    await flush(answer.messageId, 'Um ornitorrinco escreve');
    expect(await search('ornitorrinco')).toEqual([]);
    await service.finishAssistantMessage(answer.messageId, { status: 'complete' });
    expect(await search('ornitorrinco')).toEqual([chat.id]);
  });

  it('does not find deleted chats', async () => {
    const { chat } = await makeChat(s.t.ctx, owner, { title: 'Efêmero' });
    expect(await search('efemero')).toEqual([chat.id]);
    await call('DELETE', `/api/v1/chats/${chat.id}`, owner);
    expect(await search('efemero')).toEqual([]);
  });
});

describe('GET /api/v1/chats/{chatId}/messages', () => {
  it('pages backwards, each page oldest → newest', async () => {
    const texts = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const { chat, messages: rows } = await makeChat(s.t.ctx, s.alice, { messages: texts });
    const page1 = await call('GET', `/api/v1/chats/${chat.id}/messages?limit=2`, s.alice);
    expect(page1.statusCode).toBe(200);
    const p1 = z.array(MessageSchema.strict()).parse(page1.json());
    expect(p1.map((m) => m.content)).toEqual(['m3', 'm4']);
    expect(p1[0]).toMatchObject({
      role: 'assistant',
      status: 'complete',
      parentId: rows[2]!.id,
      chatId: chat.id,
    });
    const before = page1.headers['x-next-cursor'] as string;
    expect(before).toBe(rows[3]!.id);

    const page2 = await call('GET', `/api/v1/chats/${chat.id}/messages?limit=2&before=${before}`, s.alice);
    expect((page2.json() as Array<{ content: string }>).map((m) => m.content)).toEqual(['m1', 'm2']);
    const page3 = await call(
      'GET',
      `/api/v1/chats/${chat.id}/messages?limit=2&before=${page2.headers['x-next-cursor']}`,
      s.alice,
    );
    expect((page3.json() as Array<{ content: string }>).map((m) => m.content)).toEqual(['m0']);
    expect(page3.headers['x-next-cursor']).toBeUndefined();
  });

  it('refuses a `before` that is not a message of this chat', async () => {
    const { chat } = await makeChat(s.t.ctx, s.alice, { messages: ['x'] });
    const { messages: others } = await makeChat(s.t.ctx, s.alice, { messages: ['y'] });
    for (const before of ['abc', others[0]!.id]) {
      const res = await call('GET', `/api/v1/chats/${chat.id}/messages?before=${before}`, s.alice);
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('export', () => {
  it('exports the current branch as Markdown, as a download named after the title', async () => {
    const service = s.t.ctx.services.chats;
    const chat = await createChat(s.alice, { title: 'Análise: Q3/2025 "final"' });
    const q1 = await appendUserMessage(s.t.ctx, s.alice.user && (await callerOf(s.alice)), chat.chatId, {
      content: 'Primeira pergunta',
    });
    const a1 = await service.createAssistantMessage(chat.chatId, q1.messageId, 'openai:gpt-4.1-mini');
    await service.finishAssistantMessage(a1.messageId, { status: 'complete', content: 'Resposta **um**' });
    // An edit of the question makes a new branch; the old one is kept but not exported as Markdown.
    const q2 = await appendUserMessage(s.t.ctx, await callerOf(s.alice), chat.chatId, {
      content: 'Pergunta editada',
      parentId: null,
    });
    const a2 = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    await service.finishAssistantMessage(a2.messageId, { status: 'stopped', content: 'Resposta parcial' });

    const res = await call('GET', `/api/v1/chats/${chat.chatId}/export?format=md`, s.alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Analise Q3 2025 final.md"; filename*=UTF-8''${encodeURIComponent('Análise Q3 2025 final.md')}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('# Análise: Q3/2025 "final"');
    expect(res.body).toContain('Pergunta editada');
    expect(res.body).toContain('Resposta parcial');
    expect(res.body).toContain('_(interrompida)_');
    expect(res.body).not.toContain('Primeira pergunta');

    const json = await call('GET', `/api/v1/chats/${chat.chatId}/export?format=json`, s.alice);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(json.headers['content-disposition']).toContain('.json');
    const body = ChatExportSchema.parse(json.json());
    expect(body.chat.chatId).toBe(chat.chatId);
    expect(body.messages.map((m) => m.content)).toEqual([
      'Primeira pergunta',
      'Resposta **um**',
      'Pergunta editada',
      'Resposta parcial',
    ]);
    expect(body.messages[1]).toMatchObject({ model: 'openai:gpt-4.1-mini', parentId: q1.messageId });
    expect(body.leafId).toBe(a2.messageId);
  });

  it('exports the branch on screen, given its leaf, not the one of the newest message', async () => {
    const service = s.t.ctx.services.chats;
    const caller = await callerOf(s.alice);
    const chat = await service.createChat(caller, { title: 'Ramos' });
    const turn = async (content: string, parentId?: string | null) => {
      const q = await appendUserMessage(s.t.ctx, caller, chat.chatId, {
        content,
        ...(parentId === undefined ? {} : { parentId }),
      });
      const a = await service.createAssistantMessage(chat.chatId, q.messageId, null);
      await service.finishAssistantMessage(a.messageId, { status: 'complete', content: `Re: ${content}` });
      return { q, a };
    };
    const first = await turn('Pergunta original');
    // Edit and resend (2/2), back to version 1/2 and go on there, then show version 2/2 again.
    const edited = await turn('Pergunta editada', null);
    const later = await turn('Continuação da original', first.a.messageId);
    const exportOf = (query: string) => call('GET', `/api/v1/chats/${chat.chatId}/export?${query}`, s.alice);

    const shown = await exportOf(`format=md&leaf=${edited.a.messageId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Pergunta editada');
    expect(shown.body).toContain('Re: Pergunta editada');
    expect(shown.body).not.toContain('Pergunta original');
    expect(shown.body).not.toContain('Continuação da original');
    // A leaf answered since the page was drawn goes on to its newest answer, as the web shows it.
    const fromQuestion = (await exportOf(`leaf=${edited.q.messageId}`)).body;
    expect(fromQuestion).toContain('Re: Pergunta editada');
    expect(fromQuestion).not.toContain('Pergunta original');

    // Without a leaf: the branch of the newest message, as before.
    const newest = (await exportOf('format=md')).body;
    expect(newest).toContain('Pergunta original');
    expect(newest).toContain('Continuação da original');
    expect(newest).not.toContain('Pergunta editada');

    // JSON keeps every message and says which branch was on screen.
    const json = ChatExportSchema.parse((await exportOf(`format=json&leaf=${edited.a.messageId}`)).json());
    expect(json.messages).toHaveLength(6);
    expect(json.leafId).toBe(edited.a.messageId);
    const jsonNewest = ChatExportSchema.parse((await exportOf('format=json')).json());
    expect(jsonNewest.leafId).toBe(later.a.messageId);
  });

  it('refuses a leaf that is not a message of this chat: 404, or 400 when not an id', async () => {
    const { chat } = await makeChat(s.t.ctx, s.alice, { messages: ['q', 'a'] });
    const { messages: mine } = await makeChat(s.t.ctx, s.alice, { messages: ['outra'] });
    const { messages: theirs } = await makeChat(s.t.ctx, s.stranger, { messages: ['de outro domínio'] });
    for (const format of ['md', 'json']) {
      for (const leaf of [mine[0]!.id, theirs[0]!.id, crypto.randomUUID()]) {
        const res = await call(
          'GET',
          `/api/v1/chats/${chat.id}/export?format=${format}&leaf=${leaf}`,
          s.alice,
        );
        expect(res.statusCode).toBe(404);
        expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Message not found' });
      }
      const bad = await call('GET', `/api/v1/chats/${chat.id}/export?format=${format}&leaf=abc`, s.alice);
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).code).toBe('VALIDATION_FAILED');
    }
  });

  it('dates the Markdown in the reader’s time zone; a zone that is not one is refused (400)', async () => {
    const { chat } = await makeChat(s.t.ctx, s.alice, { messages: ['q', 'a'] });
    const inZone = await call(
      'GET',
      `/api/v1/chats/${chat.id}/export?format=md&timeZone=Asia/Tokyo`,
      s.alice,
    );
    expect(inZone.statusCode).toBe(200);
    expect(inZone.body).toMatch(/^_Exportado em .+ \(Asia\/Tokyo\)_$/m);
    expect(inZone.body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    for (const zone of ['Mars/Olympus', 'UTC+3', '%00']) {
      const bad = await call('GET', `/api/v1/chats/${chat.id}/export?format=md&timeZone=${zone}`, s.alice);
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).code).toBe('VALIDATION_FAILED');
    }
  });

  it('labels the Markdown in the caller’s language: screen, then saved, then browser; pt-BR else', async () => {
    const service = s.t.ctx.services.chats;
    const speaker = await makeUser(s.t.ctx, { locale: 'en' });
    const exportAs = async (who: TestUser, query: string, acceptLanguage?: string) => {
      const caller = await callerOf(who);
      const chat = await service.createChat(caller, {});
      const q = await appendUserMessage(s.t.ctx, caller, chat.chatId, { content: 'Oi' });
      const a = await service.createAssistantMessage(chat.chatId, q.messageId, 'openai:gpt-4.1-mini');
      await service.finishAssistantMessage(a.messageId, { status: 'stopped', content: 'Olá' });
      const res = await s.t.app.inject({
        method: 'GET',
        url: `/api/v1/chats/${chat.chatId}/export?format=md${query}`,
        headers: { ...who.headers, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    const ptBR = [
      '# Conversa sem título',
      '_Exportado em ',
      '## Você',
      '## Assistente (gpt-4.1-mini) _(interrompida)_',
    ];
    const en = ['# Untitled chat', '_Exported ', '## You', '## Assistant (gpt-4.1-mini) _(stopped)_'];
    const es = [
      '# Conversación sin título',
      '_Exportado el ',
      '## Tú',
      '## Asistente (gpt-4.1-mini) _(detenida)_',
    ];
    const expectLabels = (body: string, labels: string[]) => {
      for (const label of labels) expect(body).toContain(label);
    };

    // alice saved no language.
    expectLabels(await exportAs(s.alice, ''), ptBR);
    expectLabels(await exportAs(s.alice, '&locale=en'), en);
    expectLabels(await exportAs(s.alice, '', 'en-US,en;q=0.9'), en);
    expectLabels(await exportAs(s.alice, '&locale=es', 'en-US'), es);
    // speaker saved English: it beats the browser, the screen's language beats it.
    expectLabels(await exportAs(speaker, '', 'pt-BR,pt;q=0.9'), en);
    const onPortugueseScreen = await exportAs(speaker, '&locale=pt-BR');
    expectLabels(onPortugueseScreen, ptBR);
    expect(onPortugueseScreen).not.toContain('## You');
    expect(
      (await call('GET', `/api/v1/chats/${crypto.randomUUID()}/export?locale=${'x'.repeat(36)}`, s.alice))
        .statusCode,
    ).toBe(400);
  });

  it('defaults to Markdown, names an untitled chat "chat" and refuses other formats', async () => {
    const chat = await createChat(s.alice);
    const res = await call('GET', `/api/v1/chats/${chat.chatId}/export`, s.alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="chat.md"; filename*=UTF-8''chat.md`,
    );
    expect((await call('GET', `/api/v1/chats/${chat.chatId}/export?format=pdf`, s.alice)).statusCode).toBe(
      400,
    );
  });
});
