import type { Actor } from '@assistente/contracts';
import type { ApiKeyCaller, UserCaller } from './caller.ts';
import { forbidden } from './errors.ts';

/** A caller acting as a stored user (a person, or an API key on their behalf). */
export type AccountCaller = UserCaller | ApiKeyCaller;

/** The caller as the contracts' rules see it (`packages/contracts/src/policies.ts`). */
export function actor(caller: AccountCaller): Actor {
  return { id: caller.user.id, role: caller.role, domain: caller.domain.id };
}

// biome-ignore lint/suspicious/noExplicitAny: each rule names its own resource type; `can` restores it.
type Rules = Record<string, (caller: AccountCaller, resource: any) => boolean>;

export interface Policy<R extends Rules> {
  /** Whether `caller` may do `action` to `resource`. */
  can<A extends keyof R & string>(caller: AccountCaller, action: A, resource: Parameters<R[A]>[1]): boolean;
  /** As `can`, refusing with 403 FORBIDDEN (`message` says what was refused). */
  authorize<A extends keyof R & string>(
    caller: AccountCaller,
    action: A,
    resource: Parameters<R[A]>[1],
    message?: string,
  ): void;
}

/**
 * One resource's permission rules, each written once (docs/ARCHITECTURE.md#roles-and-permissions, Outline's `allow(User, …)`):
 * services ask `can`/`authorize`, never compare roles themselves.
 */
export function definePolicy<R extends Rules>(rules: R): Policy<R> {
  const can: Policy<R>['can'] = (caller, action, resource) => rules[action]?.(caller, resource) === true;
  return {
    can,
    authorize(caller, action, resource, message) {
      if (!can(caller, action, resource)) throw forbidden(message);
    },
  };
}
