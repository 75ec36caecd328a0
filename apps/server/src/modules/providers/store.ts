import type { ModelAccess } from '@assistente/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { domainAiSettings, providerConfigs } from '../../db/schema/index.ts';

export type ProviderConfigRow = typeof providerConfigs.$inferSelect;
export type ProviderConfigInsert = typeof providerConfigs.$inferInsert;
export type ProviderConfigPatch = Partial<
  Pick<ProviderConfigRow, 'label' | 'baseUrl' | 'apiKeyEnc' | 'apiKeyHint' | 'models' | 'enabled'>
>;

/**
 * SQL for provider settings. Every function takes the domain the service already checked the
 * caller may act on, and filters by it: a row of another domain is never read or written.
 */
export function providersStore(db: Db | Tx) {
  /** What every chat send needs of the domain's AI settings, in one read. */
  async function aiSettings(
    domainId: string,
  ): Promise<{ defaultModel: string | null; modelAccess: ModelAccess | null }> {
    const [row] = await db
      .select({ defaultModel: domainAiSettings.defaultModel, modelAccess: domainAiSettings.modelAccess })
      .from(domainAiSettings)
      .where(eq(domainAiSettings.domainId, domainId))
      .limit(1);
    return { defaultModel: row?.defaultModel ?? null, modelAccess: row?.modelAccess ?? null };
  }

  return {
    list(domainId: string): Promise<ProviderConfigRow[]> {
      return db
        .select()
        .from(providerConfigs)
        .where(eq(providerConfigs.domainId, domainId))
        .orderBy(asc(providerConfigs.createdAt), asc(providerConfigs.id));
    },

    async find(domainId: string, id: string): Promise<ProviderConfigRow | undefined> {
      const [row] = await db
        .select()
        .from(providerConfigs)
        .where(and(eq(providerConfigs.domainId, domainId), eq(providerConfigs.id, id)))
        .limit(1);
      return row;
    },

    async insert(values: ProviderConfigInsert): Promise<ProviderConfigRow> {
      const [row] = await db.insert(providerConfigs).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async update(
      domainId: string,
      id: string,
      patch: ProviderConfigPatch,
    ): Promise<ProviderConfigRow | undefined> {
      const [row] = await db
        .update(providerConfigs)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(providerConfigs.domainId, domainId), eq(providerConfigs.id, id)))
        .returning();
      return row;
    },

    async remove(domainId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(providerConfigs)
        .where(and(eq(providerConfigs.domainId, domainId), eq(providerConfigs.id, id)))
        .returning({ id: providerConfigs.id });
      return rows.length > 0;
    },

    async defaultModel(domainId: string): Promise<string | null> {
      return (await aiSettings(domainId)).defaultModel;
    },

    aiSettings,

    /** Writes some of the domain's AI settings, making its row if it has none yet. */
    async setAiSettings(
      domainId: string,
      set: { defaultModel?: string | null; modelAccess?: ModelAccess },
    ): Promise<void> {
      await db
        .insert(domainAiSettings)
        .values({ domainId, ...set })
        .onConflictDoUpdate({ target: domainAiSettings.domainId, set: { ...set, updatedAt: new Date() } });
    },
  };
}

export type ProvidersStore = ReturnType<typeof providersStore>;
