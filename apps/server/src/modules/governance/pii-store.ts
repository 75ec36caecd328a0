import type { PiiSettings } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { piiSettings } from '../../db/schema/index.ts';

/** SQL of each domain's PII filter settings (docs/ARCHITECTURE.md#pii-filter): one row per domain. */
export function piiStore(db: Db | Tx) {
  return {
    /** The domain's settings; undefined when it never set any (the filter is then off). */
    async read(domainId: string): Promise<PiiSettings | undefined> {
      const [row] = await db
        .select({ mode: piiSettings.mode, kinds: piiSettings.kinds })
        .from(piiSettings)
        .where(eq(piiSettings.domainId, domainId))
        .limit(1);
      return row;
    },

    async write(domainId: string, settings: PiiSettings): Promise<void> {
      const values = { mode: settings.mode, kinds: settings.kinds };
      await db
        .insert(piiSettings)
        .values({ domainId, ...values })
        .onConflictDoUpdate({ target: piiSettings.domainId, set: { ...values, updatedAt: new Date() } });
    },
  };
}

export type PiiStore = ReturnType<typeof piiStore>;
