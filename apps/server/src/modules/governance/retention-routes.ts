import {
  JobRunSchema,
  JobSchema,
  MyRetentionSchema,
  RetentionSettingsSchema,
  RetentionViewSchema,
  spansDomains,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { actor } from '../../lib/policy.ts';
import { domainSettingRoutes } from '../../plugins/domain-setting-routes.ts';
import { errorResponses, RouteNeeds } from '../../plugins/routes.ts';
import { noStore } from '../../plugins/security.ts';
import { auditMeta, recordAudit } from '../audit/index.ts';

const tags = ['governance'];

/** A domain's retention rule with its job's last and next run (Admin; SuperAdmin any domain), at /api/v1/settings/retention. */
export async function retentionSettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.retention;
  domainSettingRoutes(app, {
    tags,
    setting: RetentionViewSchema,
    update: RetentionSettingsSchema,
    summaries: {
      get: 'The domain’s retention rule (none: everything is kept), with the daily run’s last and next run',
      put: 'Set how long the domain keeps chats, files, visitors’ chats and the API’s request log',
      putDescription:
        'Null keeps for ever. A department’s `chatsDays` may only be stricter than the domain’s. The daily run deletes what is older; the usage ledger is never deleted.',
    },
    read: (caller, domain) => service.getSettings(caller, domain),
    write: (caller, body, request, domain) => service.putSettings(caller, body, auditMeta(request), domain),
  });
}

/** The rule for the signed-in person's own chats, at /api/v1/me/retention. */
export async function myRetentionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onSend', noStore);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/',
    {
      config: RouteNeeds.user,
      schema: {
        tags,
        summary: 'How long your chats and files are kept (your department’s rule when stricter)',
        response: { 200: MyRetentionSchema },
      },
    },
    async (request) => ctx.services.retention.myRetention(request.caller),
  );
}

const JobParams = z.object({ name: z.string().min(1).max(200) });

/**
 * The scheduler's jobs (SuperAdmin), at /api/v1/jobs: every job of the cluster with its last run,
 * and running one now (docs/ARCHITECTURE.md#background-jobs).
 */
export async function jobsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { superAdmin } = RouteNeeds;

  r.get(
    '/',
    {
      config: superAdmin,
      schema: {
        tags,
        summary:
          'The background jobs of the cluster, with their last run and when the schedule next runs them',
        response: { 200: z.array(JobSchema) },
      },
    },
    async (request) => {
      if (!spansDomains(actor(request.caller))) throw forbidden('Only a SuperAdmin sees the jobs');
      return ctx.scheduler.list();
    },
  );

  r.post(
    '/:name/run',
    {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Run a job now, on a process that runs it, whatever its schedule',
        description:
          'Answers the run as it starts (202); `GET /api/v1/jobs` shows how it ended. 409 while a run of the job is in progress anywhere in the cluster.',
        params: JobParams,
        response: { 202: JobRunSchema, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      if (!spansDomains(actor(caller))) throw forbidden('Only a SuperAdmin runs jobs');
      const asked = await ctx.scheduler.request(request.params.name, caller.user.id);
      if ('refused' in asked) {
        if (asked.refused === 'unknown') throw notFound('No such job');
        throw new AppError('CONFLICT', 'A run of this job is in progress; wait for it to end');
      }
      await recordAudit(ctx.db, caller, auditMeta(request), {
        action: 'job.run',
        targetType: 'job',
        targetId: asked.run.job,
        domainId: null,
        before: null,
        after: { runId: asked.run.id },
      });
      return reply.status(202).send(asked.run);
    },
  );
}
