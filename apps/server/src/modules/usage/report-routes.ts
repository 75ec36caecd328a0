import { Readable } from 'node:stream';
import {
  ModelParamsSchema,
  ModelPriceSchema,
  PriceInputSchema,
  PriceListSchema,
  UsageMeSchema,
  UsageSummaryQuerySchema,
  UsageSummarySchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { BinaryBody, errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta } from '../audit/index.ts';
import { csvLines } from './reports.ts';

/**
 * Usage reports and model prices (docs/ARCHITECTURE.md#usage-prices-and-budgets), mounted at
 * /api/v1/usage: a domain's reports for its Admins (a SuperAdmin any), everyone their own usage,
 * prices read by Admins and set by a SuperAdmin.
 */
export async function reportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.usage;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { user, admin, superAdmin } = RouteNeeds;
  const tags = ['usage'];
  app.addHook('onSend', noStore);

  r.get(
    '/summary',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The organisation’s usage over a range of its days, grouped by one key',
        querystring: UsageSummaryQuerySchema,
        response: { 200: UsageSummarySchema, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request) => service.summary(request.caller, request.query),
  );

  r.get(
    '/export',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The same rows as the summary, as a CSV download (costs in decimal USD)',
        querystring: UsageSummaryQuerySchema,
        response: { 200: BinaryBody, ...errorResponses('DOMAIN_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { rows } = await service.summary(request.caller, request.query);
      const q = request.query;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="usage-${q.groupBy}-${q.from}-${q.to}.csv"`)
        .send(Readable.from(csvLines(rows)));
    },
  );

  r.get(
    '/me',
    {
      config: user,
      schema: {
        tags,
        summary: 'The caller’s own usage this month, by model, and the budgets that cover them',
        response: { 200: UsageMeSchema },
      },
    },
    async (request) => service.me(request.caller),
  );

  r.get(
    '/prices',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The price in force of every priced model (instance-wide)',
        response: { 200: PriceListSchema },
      },
    },
    async (request) => service.listPrices(request.caller),
  );

  r.get(
    '/prices/:model/history',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Every price a model has had, newest first',
        params: ModelParamsSchema,
        response: { 200: PriceListSchema },
      },
    },
    async (request) => service.priceHistory(request.caller, request.params.model),
  );

  r.put(
    '/prices/:model',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Set a model’s price from now on (earlier calls keep theirs)',
        params: ModelParamsSchema,
        body: PriceInputSchema,
        response: { 200: ModelPriceSchema },
      },
    },
    async (request) =>
      service.setPrice(request.caller, request.params.model, request.body, auditMeta(request)),
  );
}
