import { and, asc, count, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { mcpServers } from '../../db/schema/index.ts';

export type McpServerRow = typeof mcpServers.$inferSelect;
export type McpServerInsert = typeof mcpServers.$inferInsert;
export type McpServerPatch = Partial<Omit<McpServerInsert, 'id' | 'domainId' | 'createdAt' | 'updatedAt'>>;

/**
 * SQL for MCP servers. Every function takes the domain the service already checked the caller may
 * act on, and filters by it: a row of another domain is never read or written.
 */
export function mcpServersStore(db: Db | Tx) {
  return {
    list(domainId: string): Promise<McpServerRow[]> {
      return db
        .select()
        .from(mcpServers)
        .where(eq(mcpServers.domainId, domainId))
        .orderBy(asc(mcpServers.createdAt), asc(mcpServers.id));
    },

    async count(domainId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(mcpServers).where(eq(mcpServers.domainId, domainId));
      return row?.n ?? 0;
    },

    async find(domainId: string, id: string): Promise<McpServerRow | undefined> {
      const [row] = await db
        .select()
        .from(mcpServers)
        .where(and(eq(mcpServers.domainId, domainId), eq(mcpServers.id, id)))
        .limit(1);
      return row;
    },

    async insert(values: McpServerInsert): Promise<McpServerRow> {
      const [row] = await db.insert(mcpServers).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async update(domainId: string, id: string, patch: McpServerPatch): Promise<McpServerRow | undefined> {
      const [row] = await db
        .update(mcpServers)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(mcpServers.domainId, domainId), eq(mcpServers.id, id)))
        .returning();
      return row;
    },

    async remove(domainId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(mcpServers)
        .where(and(eq(mcpServers.domainId, domainId), eq(mcpServers.id, id)))
        .returning({ id: mcpServers.id });
      return gone.length > 0;
    },
  };
}

export type McpServersStore = ReturnType<typeof mcpServersStore>;
