import { forbidden } from '../../lib/errors.ts';
import type { Caller } from '../../plugins/auth.ts';

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
