import { EmbeddedSessionSchema } from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A new anonymous visitor of the embed, as a page of `site` starts one: their id token. */
export async function visitorToken(app: FastifyInstance, virtualAccountId: string, site: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/embedded/${virtualAccountId}/session`,
    headers: { origin: site },
    payload: {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return EmbeddedSessionSchema.parse(res.json()).idToken;
}
