import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import { exportSubject, subjectPeople } from './data-subjects.ts';
import { heldUsers, setLegalHold } from './legal-hold.ts';
import { accountsState } from './state.ts';
import type { AccountsStore } from './store.ts';
import { updateUser } from './user-updates.ts';
import { createUser, deleteUser, getUser, listUsers, resendInvitation, revokeUserSessions } from './users.ts';

/**
 * Users, as other modules and the routes call them (docs/ARCHITECTURE.md#service-style): users.ts
 * reads, creates, invites and deletes; user-updates.ts changes a user field by field.
 */
export function accountsService(ctx: AppContext, store?: AccountsStore) {
  return withState(accountsState(ctx, store), {
    getUser,
    listUsers,
    createUser,
    resendInvitation,
    updateUser,
    deleteUser,
    revokeUserSessions,
    /** Legal hold (docs/ARCHITECTURE.md#retention): set by an Admin, read by retention. */
    setLegalHold,
    heldUsers,
    /** Whose data an export holds (the governance module's exports). */
    exportSubject,
    subjectPeople,
  });
}

export type AccountsService = ReturnType<typeof accountsService>;
