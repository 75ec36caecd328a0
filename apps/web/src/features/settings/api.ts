import {
  type AuditAction,
  type AuditEntry,
  AuditEntrySchema,
  type DomainSettings,
  DomainSettingsSchema,
  type DomainSettingsUpdate,
  type Profile,
  ProfileSchema,
  type ProfileUpdate,
  type Session,
  SessionSchema,
  type SessionsRevoked,
  SessionsRevokedSchema,
} from '@assistente/contracts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { arrayOf } from '../../lib/http/schemas.ts';
import { authServices } from '../auth/index.ts';

export interface AuditListParams {
  action?: AuditAction;
  /** The actor's user id (email). */
  actor?: string;
  /** ISO date-times: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
  /** A SuperAdmin's domain filter; null: every domain (for others, their own). */
  domain: string | null;
  cursor?: string;
  limit?: number;
}

const AUDIT_PAGE_SIZE = 20;

const http = () => authServices().accountHttp;

/** /api/v1/settings (own profile, sessions, EULA record; domain settings) and /api/v1/audit. */
export const settingsApi = {
  getProfile: (): Promise<Profile> => http().get('/api/v1/settings/profile', { schema: ProfileSchema }),
  updateProfile: (body: ProfileUpdate): Promise<Profile> =>
    http().put('/api/v1/settings/profile', { body, schema: ProfileSchema }),

  listSessions: (): Promise<Session[]> =>
    http().get('/api/v1/settings/sessions', { schema: arrayOf(SessionSchema) }),
  revokeSession: async (id: string): Promise<void> => {
    await http().delete(`/api/v1/settings/sessions/${encodeURIComponent(id)}`);
  },
  revokeAllSessions: (keepCurrent: boolean): Promise<SessionsRevoked> =>
    http().post('/api/v1/settings/sessions/revoke-all', {
      body: { keepCurrent },
      schema: SessionsRevokedSchema,
    }),

  getDomainSettings: (domain: string): Promise<DomainSettings> =>
    http().get('/api/v1/settings/domain', { query: { domain }, schema: DomainSettingsSchema }),
  updateDomainSettings: (domain: string, body: DomainSettingsUpdate): Promise<DomainSettings> =>
    http().put('/api/v1/settings/domain', { query: { domain }, body, schema: DomainSettingsSchema }),

  listAudit: (params: AuditListParams): Promise<Page<AuditEntry>> =>
    getPage(http(), '/api/v1/audit', AuditEntrySchema, {
      action: params.action,
      actor: params.actor || undefined,
      from: params.from,
      to: params.to,
      domain: params.domain ?? undefined,
      cursor: params.cursor,
      limit: params.limit ?? AUDIT_PAGE_SIZE,
    }),
};
