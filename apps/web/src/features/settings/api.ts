import type {
  AuditAction,
  AuditEntry,
  DomainSettings,
  DomainSettingsUpdate,
  Profile,
  ProfileUpdate,
  Session,
  SessionsRevoked,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { arrayOf, done, parsed, typed } from '../../lib/http/schemas.ts';

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

/** /api/v1/settings (own profile, sessions, EULA record; domain settings) and /api/v1/audit. */
export function createSettingsApi(client: ApiClient) {
  return {
    getProfile: (): Promise<Profile> => parsed(typed<Profile>(), client.GET('/api/v1/settings/profile')),
    updateProfile: (body: ProfileUpdate): Promise<Profile> =>
      parsed(typed<Profile>(), client.PUT('/api/v1/settings/profile', { body })),

    listSessions: (): Promise<Session[]> =>
      parsed(arrayOf(typed<Session>()), client.GET('/api/v1/settings/sessions')),
    revokeSession: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/settings/sessions/{id}', { params: { path: { id } } })),
    revokeAllSessions: (keepCurrent: boolean): Promise<SessionsRevoked> =>
      parsed(
        typed<SessionsRevoked>(),
        client.POST('/api/v1/settings/sessions/revoke-all', { body: { keepCurrent } }),
      ),

    getDomainSettings: (domain: string): Promise<DomainSettings> =>
      parsed(
        typed<DomainSettings>(),
        client.GET('/api/v1/settings/domain', { params: { query: { domain } } }),
      ),
    updateDomainSettings: (domain: string, body: DomainSettingsUpdate): Promise<DomainSettings> =>
      parsed(
        typed<DomainSettings>(),
        client.PUT('/api/v1/settings/domain', { params: { query: { domain } }, body }),
      ),

    listAudit: (params: AuditListParams): Promise<Page<AuditEntry>> =>
      page(
        typed<AuditEntry>(),
        client.GET('/api/v1/audit', {
          params: {
            query: {
              action: params.action,
              actor: params.actor || undefined,
              from: params.from,
              to: params.to,
              domain: params.domain ?? undefined,
              cursor: params.cursor,
              limit: params.limit ?? AUDIT_PAGE_SIZE,
            },
          },
        }),
      ),
  };
}
