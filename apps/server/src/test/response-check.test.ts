import Fastify, { type FastifySchema } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkDeclaredResponses } from './response-check.ts';

const Thing = z.object({ id: z.string(), size: z.number().int() });

async function appWithRoutes() {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  const mismatches = checkDeclaredResponses(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = { response: { 200: Thing } };
  r.get('/good', { schema }, async () => ({ id: 'a', size: 1 }));
  // What a handler drifting from its contract looks like to the type checker's blind side.
  r.get('/wrong-shape', { schema }, async () => ({ id: 1, size: 'big' }) as unknown as z.infer<typeof Thing>);
  // Typed loosely, as a route built from parts may be: nothing stops it answering 202.
  const loose: FastifySchema = schema;
  app.get('/undeclared-status', { schema: loose }, async (_req, reply) =>
    reply.code(202).send({ id: 'a', size: 1 }),
  );
  app.get('/no-declaration', async () => ({ anything: true }));
  await app.ready();
  return { app, mismatches };
}

describe('answers checked against their declared schemas (tests only)', () => {
  it('lets an answer that matches its schema through unchanged', async () => {
    const { app, mismatches } = await appWithRoutes();
    const res = await app.inject('/good');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a', size: 1 });
    expect((await app.inject('/no-declaration')).statusCode).toBe(200);
    expect(mismatches).toEqual([]);
  });

  it('fails a body that does not match its declared schema, naming the fields', async () => {
    const { app, mismatches } = await appWithRoutes();
    const res = await app.inject('/wrong-shape');
    expect(res.statusCode).toBe(500);
    // (Its 500 is not declared here either: the app's routes all declare INTERNAL.)
    expect(mismatches[0]).toMatch(/^GET \/wrong-shape 200: id: .*; size: /);
  });

  it('fails a status the route does not declare', async () => {
    const { app, mismatches } = await appWithRoutes();
    const res = await app.inject('/undeclared-status');
    expect(res.statusCode).toBe(500);
    expect(mismatches).toEqual(['GET /undeclared-status answered 202, which it does not declare']);
  });
});
