import type { AppContext } from '../../context.ts';
import { type OwnAccountService, ownAccountService } from '../accounts/index.ts';

/**
 * What every settings operation shares (docs/ARCHITECTURE.md#service-style): the context, and the
 * accounts module's view of the caller's own user and domain.
 */
export interface SettingsState {
  readonly ctx: AppContext;
  readonly account: OwnAccountService;
}

export function settingsState(
  ctx: AppContext,
  account: OwnAccountService = ownAccountService(ctx),
): SettingsState {
  return { ctx, account };
}
