import { PiiSettingsSchema } from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { domainSettingRoutes } from '../../plugins/domain-setting-routes.ts';
import { auditMeta } from '../audit/index.ts';

/** A domain's PII and credential filter (Admin+; SuperAdmin any domain), at /api/v1/settings/pii. */
export async function piiSettingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.pii;
  domainSettingRoutes(app, {
    tags: ['governance'],
    setting: PiiSettingsSchema,
    update: PiiSettingsSchema,
    summaries: {
      get: 'The domain’s PII and credential filter (no setting: off, every kind)',
      put: 'Set the domain’s PII and credential filter',
      putDescription:
        'Applied to what people send (chats, embeds, the editor, /v1), tool arguments and attachment text before a model or the database sees them: `redact` replaces each match with its kind (`[CPF]`), `block` refuses with PII_BLOCKED naming the kinds.',
    },
    read: (caller, domain) => service.getSettings(caller, domain),
    write: (caller, body, request, domain) => service.putSettings(caller, body, auditMeta(request), domain),
  });
}
