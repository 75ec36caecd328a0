import { hasRole } from '@assistente/contracts';
import { forbidden } from '../../lib/errors.ts';
import type { Caller, UserRow } from '../../plugins/auth.ts';

/**
 * The domain an administrative call acts on. `?domain=` is also the hint the web client adds to
 * every call: naming one's own domain (or none) is the caller's domain; only a SuperAdmin may name
 * another, and anyone else naming one is refused rather than silently served their own.
 */
export function actingDomain(caller: Caller, requested: string | undefined): string {
  const want = requested?.trim().toLowerCase();
  if (!want || want === caller.domain.id) return caller.domain.id;
  if (caller.role !== 'SuperAdmin') throw forbidden('You may only manage your own organisation');
  return want;
}

/** Admin APIs: Viewer and Editor are refused before anything is looked up. */
export function requireAdmin(caller: Caller): void {
  if (!hasRole(caller.role, 'Admin')) throw forbidden();
}

/** A SuperAdmin manages everyone; an Admin the non-SuperAdmins of their own domain. */
export function managesUser(caller: Caller, target: UserRow): boolean {
  if (caller.role === 'SuperAdmin') return true;
  return (
    caller.role === 'Admin' && caller.domain.id === target.domainId && !hasRole(target.role, 'SuperAdmin')
  );
}
