import {
  BudgetInputSchema,
  BudgetListQuerySchema,
  BudgetListSchema,
  BudgetSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorResponses, IdParams, RouteNeeds } from '../../plugins/routes.ts';
import { auditMeta } from '../audit/index.ts';

/** Budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets), mounted at /api/v1/usage: Admins of the domain, a SuperAdmin any. */
export async function budgetRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.usage;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = RouteNeeds;
  const tags = ['usage'];

  r.get(
    '/budgets',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The organisation’s budgets, each with what its current period has used',
        querystring: BudgetListQuerySchema,
        response: { 200: BudgetListSchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.listBudgets(request.caller, request.query),
  );

  r.post(
    '/budgets',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Set a budget for the organisation, a department or a person (one per scope and period)',
        body: BudgetInputSchema,
        response: {
          201: BudgetSchema,
          ...errorResponses('DOMAIN_NOT_FOUND', 'DEPARTMENT_NOT_FOUND', 'USER_NOT_FOUND', 'CONFLICT'),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.createBudget(request.caller, request.body, auditMeta(request))),
  );

  r.put(
    '/budgets/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a budget: its scope, period, limits or warning share',
        params: IdParams,
        body: BudgetInputSchema,
        response: {
          200: BudgetSchema,
          ...errorResponses('NOT_FOUND', 'DEPARTMENT_NOT_FOUND', 'USER_NOT_FOUND', 'CONFLICT'),
        },
      },
    },
    async (request) =>
      service.updateBudget(request.caller, request.params.id, request.body, auditMeta(request)),
  );

  r.delete(
    '/budgets/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Remove a budget: the people it covered are no longer limited by it',
        params: IdParams,
        response: { 204: z.null(), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await service.deleteBudget(request.caller, request.params.id, auditMeta(request));
      return reply.status(204).send(null);
    },
  );
}
