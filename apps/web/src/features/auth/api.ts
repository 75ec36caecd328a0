import type { Department, Domain, User, UserUpdate } from '@assistente/contracts';
import type { ApiClient, RequestUser } from '../../lib/http/client.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { arrayOf, nullable, parsed, typed } from '../../lib/http/schemas.ts';

export interface AccountApi {
  /** The user fetch by email: the user id is the lowercased email (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
  getUserByEmail(email: string): Promise<User>;
  getDomain(domainId: string, as?: RequestUser | null): Promise<Domain>;
  listDepartments(): Promise<Department[]>;
  /** PUT with the full body. */
  updateUser(user: User): Promise<User>;
}

function userIdFromEmail(email: string): string {
  return email.trim().toLowerCase();
}

function updateBody(user: User): UserUpdate {
  return {
    _id: user._id,
    active: user.active,
    displayName: user.displayName,
    email: user.email,
    domain: user.domain,
    department: user.department,
    role: user.role,
    type: user.type,
    creator: user.creator,
    eula: user.eula,
  };
}

/** Account manager calls (docs/ARCHITECTURE.md#calling-the-api). */
export function createAccountApi(client: ApiClient): AccountApi {
  return {
    async getUserByEmail(email) {
      const id = userIdFromEmail(email);
      // No account hints yet: the session may still hold a previous user.
      const call = client.GET('/api/v1/user/{id}', { params: { path: { id } }, as: null });
      const user = await parsed(nullable(typed<User>()), call);
      if (!user) {
        // A lookup returning nothing is a not-found, status 404, "User not found".
        throw new HttpError({
          url: (await call).response.url.split('?')[0] ?? '',
          method: 'GET',
          status: 404,
          data: { error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } },
        });
      }
      return user;
    },
    getDomain: (domainId, as) =>
      parsed(
        typed<Domain>(),
        client.GET('/api/v1/domain/{id}', {
          params: { path: { id: domainId } },
          ...(as === undefined ? {} : { as }),
        }),
      ),
    listDepartments: () => parsed(arrayOf(typed<Department>()), client.GET('/api/v1/department')),
    updateUser: (user) =>
      parsed(
        typed<User>(),
        client.PUT('/api/v1/user/{id}', { params: { path: { id: user._id } }, body: updateBody(user) }),
      ),
  };
}
