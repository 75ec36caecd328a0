import type { Eula, EulaStatus, User } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { parsed, typed } from '../../lib/http/schemas.ts';
import { authServices } from '../auth/index.ts';

/**
 * The acceptance record (docs/ARCHITECTURE.md#organisations-domains-departments-premium): `accept`, `timestamp`, `version`,
 * `pendingRevision: false`, keeping `pendingTimestamp` and `isPrivacyPolicy`. The server stamps
 * its own clock and the version the domain asks for now.
 */
function acceptedEula(current: Eula, now: Date, version: string = current.version): Eula {
  return {
    accept: true,
    timestamp: now.toISOString(),
    version,
    pendingRevision: false,
    pendingTimestamp: current.pendingTimestamp,
    isPrivacyPolicy: true,
  };
}

/** PUTs the user's own record with the acceptance (docs/ARCHITECTURE.md#organisations-domains-departments-premium: the full body). */
export function acceptEula(user: User, version?: string): Promise<User> {
  return authServices().accountApi.updateUser({
    ...user,
    eula: acceptedEula(user.eula, new Date(), version),
  });
}

/** The terms the domain asks for now and whether the user has accepted them. */
export function createEulaApi(client: ApiClient) {
  return {
    status: (): Promise<EulaStatus> => parsed(typed<EulaStatus>(), client.GET('/api/v1/settings/eula')),
  };
}
