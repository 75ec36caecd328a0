import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { ssoProviders } from '../../db/schema/index.ts';
import { standingByEmail } from '../accounts/directory.ts';

export type SsoProviderRow = typeof ssoProviders.$inferSelect;
export type SsoProviderInsert = typeof ssoProviders.$inferInsert;
export type SsoProviderPatch = Partial<
  Pick<
    SsoProviderRow,
    | 'displayName'
    | 'issuer'
    | 'clientId'
    | 'clientSecretEnc'
    | 'domains'
    | 'autoProvision'
    | 'defaultRole'
    | 'enabled'
  >
>;

/**
 * SQL for single sign-on providers. They belong to the instance, not to a domain: the service
 * lets only SuperAdmins write them, and the login page sees only what `loginOptions` picks.
 */
export function ssoStore(db: Db | Tx) {
  return {
    list(): Promise<SsoProviderRow[]> {
      return db.select().from(ssoProviders).orderBy(asc(ssoProviders.createdAt), asc(ssoProviders.id));
    },

    async find(id: string): Promise<SsoProviderRow | undefined> {
      const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.id, id)).limit(1);
      return row;
    },

    async insert(values: SsoProviderInsert): Promise<SsoProviderRow> {
      const [row] = await db.insert(ssoProviders).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async update(id: string, patch: SsoProviderPatch): Promise<SsoProviderRow | undefined> {
      const [row] = await db
        .update(ssoProviders)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(ssoProviders.id, id))
        .returning();
      return row;
    },

    /** The stored user of an address a provider vouched for, with whether they and their domain may act. */
    async userByEmail(
      email: string,
    ): Promise<{ displayName: string; active: boolean; domainActive: boolean } | undefined> {
      return standingByEmail(db, email);
    },

    async remove(id: string): Promise<SsoProviderRow | undefined> {
      const [row] = await db.delete(ssoProviders).where(eq(ssoProviders.id, id)).returning();
      return row;
    },
  };
}

export type SsoStore = ReturnType<typeof ssoStore>;
