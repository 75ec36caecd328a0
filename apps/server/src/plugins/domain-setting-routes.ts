import { ProviderSettingsQuerySchema } from '@assistente/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { UserCaller } from '../lib/caller.ts';
import { errorResponses, RouteNeeds } from './routes.ts';
import { noStore } from './security.ts';

/** One setting of a domain, as its routes read and change it. */
export interface DomainSetting<Setting extends z.ZodType, Update extends z.ZodType> {
  tags: string[];
  /** What GET and PUT answer. */
  setting: Setting;
  /** What PUT takes (often `setting` itself). */
  update: Update;
  summaries: { get: string; put: string; putDescription?: string };
  read(caller: UserCaller, domain: string | undefined): Promise<z.output<Setting>>;
  /** `request` is for the audit row's origin (`auditMeta`). */
  write(
    caller: UserCaller,
    body: z.output<Update>,
    request: FastifyRequest,
    domain: string | undefined,
  ): Promise<z.output<Setting>>;
}

/**
 * GET·PUT `/` of a domain setting (`/api/v1/settings/{tools,sharing,memory}`): Admins for their own
 * domain, a SuperAdmin for any with `?domain=`, never cached. The services decide who may; this
 * only declares the routes once.
 */
export function domainSettingRoutes<Setting extends z.ZodType, Update extends z.ZodType>(
  app: FastifyInstance,
  spec: DomainSetting<Setting, Update>,
): void {
  app.addHook('onSend', noStore);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tags, summaries } = spec;
  const querystring = ProviderSettingsQuerySchema;
  // Widened: the provider cannot resolve a generic schema's output, and `read`/`write` are already
  // typed by it (the declared response still checks every answer at run time).
  const response: Record<number, z.ZodType> = { 200: spec.setting, ...errorResponses('DOMAIN_NOT_FOUND') };

  r.get(
    '/',
    { config: RouteNeeds.admin, schema: { tags, summary: summaries.get, querystring, response } },
    async (request) => spec.read(request.caller, request.query.domain),
  );

  r.put(
    '/',
    {
      config: RouteNeeds.admin,
      schema: {
        tags,
        summary: summaries.put,
        ...(summaries.putDescription ? { description: summaries.putDescription } : {}),
        querystring,
        body: spec.update,
        response,
      },
    },
    async (request) =>
      spec.write(request.caller, request.body as z.output<Update>, request, request.query.domain),
  );
}
