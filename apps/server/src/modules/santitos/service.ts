import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { checkAvatarUpload, openAvatar, setAvatarImage } from './avatars.ts';
import { findForEmbed, findUsable, get, list, listUsable } from './catalogue.ts';
import { create, remove, update } from './changes.ts';
import { santitoLists, santitosListing } from './knowledge-refs.ts';
import { santitoNames } from './labels.ts';
import { santitosState } from './state.ts';
import type { SantitosStore } from './store.ts';

/**
 * The domain's assistants (docs/ARCHITECTURE.md#organisations-domains-departments-premium),
 * premium only: for a caller whose domain is not premium every santito answers 404, as if the
 * feature did not exist. Everyone uses them, Editors create, authors and Admins edit. Each
 * operation lives in the file of its concern (docs/ARCHITECTURE.md#service-style).
 */
export function santitosService(ctx: AppContext, store?: SantitosStore) {
  return withState(santitosState(ctx, store), {
    findUsable,
    findForEmbed,
    listUsable,
    list,
    get,
    create,
    update,
    remove,
    checkAvatarUpload,
    setAvatarImage,
    openAvatar,
    santitosListing,
    santitoLists,
    santitoNames,
  });
}

export type SantitosService = ReturnType<typeof santitosService>;
