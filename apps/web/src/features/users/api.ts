import {
  type InvitationSent,
  InvitationSentSchema,
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
import { getPage, type Page } from '../../lib/http/paging.ts';
import { authServices } from '../auth/index.ts';

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

const http = () => authServices().accountHttp;
const path = (id: string) => `/api/v1/user/${encodeURIComponent(id)}`;

/** Account manager: users (docs/ARCHITECTURE.md#organisations-domains-departments-premium). `locale` is the inviter's screen language, for the mail. */
export const usersApi = {
  list: (params: UserListParams): Promise<Page<User>> =>
    getPage(http(), '/api/v1/user', UserSchema, {
      q: params.q || undefined,
      sort: params.sort,
      order: params.order,
      role: params.role,
      active: params.active === undefined ? undefined : String(params.active),
      // Replaces the client's `domain` hint: for a SuperAdmin it is a filter, absent means all.
      domain: params.domain ?? undefined,
      cursor: params.cursor,
      limit: params.limit ?? USERS_PAGE_SIZE,
    }),
  create: (body: UserCreate, locale: string): Promise<UserCreated> =>
    http().post('/api/v1/user', { body, query: { locale }, schema: UserCreatedSchema }),
  /** PUT with the full record (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
  update: (user: User): Promise<User> => authServices().accountApi.updateUser(user),
  remove: async (id: string): Promise<void> => {
    await http().delete(path(id));
  },
  resendInvitation: (id: string, locale: string): Promise<InvitationSent> =>
    http().post(`${path(id)}/invitation`, { query: { locale }, schema: InvitationSentSchema }),
  revokeSessions: (id: string): Promise<SessionsRevoked> =>
    http().post(`${path(id)}/sessions/revoke-all`, { schema: SessionsRevokedSchema }),
};
