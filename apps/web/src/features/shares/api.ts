import type {
  Share,
  ShareCopy,
  ShareCreate,
  SharedChat,
  ShareOptions,
  SharingSettings,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed, typed } from '../../lib/http/schemas.ts';

/** Links shown per page of the owner's list. */
const SHARES_PAGE_SIZE = 20;

const byShare = (shareId: string) => ({ params: { path: { shareId } } });

/** Share links (docs/ARCHITECTURE.md#share-links), served by the chats manager. */
export function createSharesApi(client: ApiClient) {
  return {
    create: (chatId: string, body: ShareCreate): Promise<Share> =>
      parsed(
        typed<Share>(),
        client.POST('/api/v1/chats/{chatId}/shares', { params: { path: { chatId } }, body }),
      ),
    list: (cursor?: string): Promise<Page<Share>> =>
      page(
        typed<Share>(),
        client.GET('/api/v1/shares', { params: { query: { cursor, limit: SHARES_PAGE_SIZE } } }),
      ),
    revoke: (shareId: string): Promise<void> =>
      done(client.DELETE('/api/v1/shares/{shareId}', byShare(shareId))),
    options: (): Promise<ShareOptions> => parsed(typed<ShareOptions>(), client.GET('/api/v1/shares/options')),
    /** A 404 (revoked, expired, or not for this reader) is the caller's to tell apart. */
    read: (shareId: string): Promise<SharedChat> =>
      parsed(typed<SharedChat>(), client.GET('/api/v1/shares/{shareId}', { ...byShare(shareId), retry: 0 })),
    copy: (shareId: string): Promise<ShareCopy> =>
      parsed(typed<ShareCopy>(), client.POST('/api/v1/shares/{shareId}/copy', byShare(shareId))),
  };
}

/** A domain's sharing settings (Admins), served with the other settings by the account manager. */
export function createSharingSettingsApi(client: ApiClient) {
  return {
    get: (domain: string): Promise<SharingSettings> =>
      parsed(
        typed<SharingSettings>(),
        client.GET('/api/v1/settings/sharing', { params: { query: { domain } } }),
      ),
    put: (domain: string, body: SharingSettings): Promise<SharingSettings> =>
      parsed(
        typed<SharingSettings>(),
        client.PUT('/api/v1/settings/sharing', { params: { query: { domain } }, body }),
      ),
  };
}
