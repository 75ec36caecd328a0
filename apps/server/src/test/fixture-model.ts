// The model fixture as a domain's default model, set up the way an Admin does it (through the
// API): what the agents suites, the tool tests and the tools bench share.
import type { FastifyInstance } from 'fastify';

/** Adds the fixture at `baseUrl` as a provider of the Admin's domain and makes it the default; answers the model id. */
export async function useFixtureModel(
  app: FastifyInstance,
  adminHeaders: Record<string, string>,
  baseUrl: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: adminHeaders,
    payload: {
      kind: 'openai-compatible',
      label: 'Fixture',
      baseUrl,
      apiKey: 'sk-fixture-0123456789',
      models: ['fixture-small'],
    },
  });
  if (res.statusCode !== 201) throw new Error(`adding the fixture provider: ${res.statusCode} ${res.body}`);
  const modelId = `${(res.json() as { id: string }).id}:fixture-small`;
  const put = await app.inject({
    method: 'PUT',
    url: '/api/v1/settings/ai',
    headers: adminHeaders,
    payload: { defaultModel: modelId },
  });
  if (put.statusCode !== 200) throw new Error(`setting the default model: ${put.statusCode} ${put.body}`);
  return modelId;
}
