import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from './app.ts';
import { makeDomain, makeUser, type TestDomain } from './factories.ts';
import { type LlmFixture, type LlmScript, startLlmFixture } from './llm-fixture.ts';

export interface AgentsTestApp {
  t: TestApp;
  fx: LlmFixture;
  /** The agents websocket of the listening app. */
  wsUrl: string;
  /** A domain whose Admin configured the fixture as its provider (model `fixture-small`). */
  domain: TestDomain;
  close(): Promise<void>;
}

/**
 * The whole app listening on loopback, with a real OpenAI-compatible streaming fixture configured
 * as one domain's provider, the way an Admin does it (through the API, under the SSRF allowlist).
 */
export async function startAgentsTestApp(
  opts: { env?: Record<string, string>; script?: LlmScript } = {},
): Promise<AgentsTestApp> {
  const fx = await startLlmFixture(opts.script ? { script: opts.script } : {});
  const t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}`, ...opts.env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  const domain = await makeDomain(t.ctx);
  const admin = await makeUser(t.ctx, { domain, role: 'Admin' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: admin.headers,
    payload: { kind: 'openai-compatible', label: 'Fixture', baseUrl: fx.baseUrl, models: ['fixture-small'] },
  });
  if (res.statusCode !== 201) throw new Error(`configuring the fixture provider failed: ${res.body}`);
  return {
    t,
    fx,
    wsUrl,
    domain,
    async close() {
      await t.close();
      await fx.close();
    },
  };
}
