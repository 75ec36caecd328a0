import {
  type InvitationSent,
  InvitationSentSchema,
  type LegalHold,
  LegalHoldSchema,
  type Role,
  type SessionsRevoked,
  SessionsRevokedSchema,
  type SortOrder,
  type User,
  type UserCreate,
  type UserCreated,
  UserCreatedSchema,
  UserSchema,
  type UserSortField,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed } from '../../lib/http/schemas.ts';

export interface UserListParams {
  q?: string;
  sort: UserSortField;
  order: SortOrder;
  role?: Role;
  active?: boolean;
  /** A SuperAdmin's domain filter; null lists every domain (an Admin always gets their own). */
  domain: string | null;
  cursor?: string;
  limit?: number;
}

const USERS_PAGE_SIZE = 25;

const byId = (id: string) => ({ params: { path: { id } } });

/**
 * Account manager: users (docs/ARCHITECTURE.md#organisations-domains-departments-premium). `locale`
 * is the inviter's screen language, for the mail; an update is the account API's full-record PUT.
 */
export function createUsersApi(client: ApiClient) {
  return {
    list: (params: UserListParams): Promise<Page<User>> =>
      page(
        UserSchema,
        client.GET('/api/v1/user', {
          params: {
            query: {
              q: params.q || undefined,
              sort: params.sort,
              order: params.order,
              role: params.role,
              active: params.active === undefined ? undefined : params.active ? 'true' : 'false',
              // Replaces the client's `domain` hint: for a SuperAdmin it is a filter, absent means all.
              domain: params.domain ?? undefined,
              cursor: params.cursor,
              limit: params.limit ?? USERS_PAGE_SIZE,
            },
          },
        }),
      ),
    create: (body: UserCreate, locale: string): Promise<UserCreated> =>
      parsed(UserCreatedSchema, client.POST('/api/v1/user', { body, params: { query: { locale } } })),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/user/{id}', byId(id))),
    resendInvitation: (id: string, locale: string): Promise<InvitationSent> =>
      parsed(
        InvitationSentSchema,
        client.POST('/api/v1/user/{id}/invitation', { params: { path: { id }, query: { locale } } }),
      ),
    revokeSessions: (id: string): Promise<SessionsRevoked> =>
      parsed(SessionsRevokedSchema, client.POST('/api/v1/user/{id}/sessions/revoke-all', byId(id))),
    /** Legal hold (docs/ARCHITECTURE.md#governance): while on, nothing of the person is deleted. */
    setLegalHold: (id: string, hold: boolean): Promise<LegalHold> =>
      parsed(LegalHoldSchema, client.PUT('/api/v1/user/{id}/legal_hold', { ...byId(id), body: { hold } })),
  };
}
