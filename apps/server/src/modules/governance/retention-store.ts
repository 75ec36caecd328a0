import { DefaultRetention, type RetentionSettings } from '@assistente/contracts';
import { eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { retentionSettings } from '../../db/schema/index.ts';

type Row = typeof retentionSettings.$inferSelect;

const sqlHasDepartments = sql`${retentionSettings.departments} <> '{}'::jsonb`;

const toSettings = (row: Row): RetentionSettings => ({
  chatsDays: row.chatsDays,
  filesDays: row.filesDays,
  visitorChatsDays: row.visitorChatsDays,
  apiLogsDays: row.apiLogsDays,
  exemptPinned: row.exemptPinned,
  departments: { ...row.departments },
});

/** SQL of each domain's retention rule (docs/ARCHITECTURE.md#retention): one row per domain, none keeps all. */
export function retentionStore(db: Db | Tx) {
  return {
    async read(domainId: string): Promise<RetentionSettings> {
      const [row] = await db
        .select()
        .from(retentionSettings)
        .where(eq(retentionSettings.domainId, domainId))
        .limit(1);
      return row ? toSettings(row) : { ...DefaultRetention, departments: {} };
    },

    async write(domainId: string, settings: RetentionSettings): Promise<void> {
      const values = { ...settings, departments: settings.departments };
      await db
        .insert(retentionSettings)
        .values({ domainId, ...values })
        .onConflictDoUpdate({
          target: retentionSettings.domainId,
          set: { ...values, updatedAt: new Date() },
        });
    },

    /** The domains whose rule deletes something, with it. */
    async rules(): Promise<Array<{ domainId: string; settings: RetentionSettings }>> {
      const rows = await db
        .select()
        .from(retentionSettings)
        .where(
          or(
            isNotNull(retentionSettings.chatsDays),
            isNotNull(retentionSettings.filesDays),
            isNotNull(retentionSettings.visitorChatsDays),
            isNotNull(retentionSettings.apiLogsDays),
            // A department's rule applies even where the domain keeps chats for ever.
            sqlHasDepartments,
          ),
        );
      return rows.map((r) => ({ domainId: r.domainId, settings: toSettings(r) }));
    },
  };
}

export type RetentionStore = ReturnType<typeof retentionStore>;
