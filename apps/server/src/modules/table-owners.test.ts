import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tables have owners (docs/ARCHITECTURE.md#table-ownership): a module's files name only its own
 * tables; what it needs of another module's comes through that module's service, or through one
 * of the named cross-table reads below.
 */

const MODULES = path.dirname(new URL(import.meta.url).pathname);
const SCHEMA = path.join(MODULES, '..', 'db', 'schema');

/** Each table (and table-level expression) of db/schema, by the module that owns it. */
const OWNERS: Record<string, string[]> = {
  accounts: ['domains', 'departments', 'users'],
  apikeys: ['apiKeys', 'apiUsage'],
  audit: ['auditEntries'],
  chats: [
    'chats',
    'messages',
    'messageChunks',
    'attachments',
    'streamedContent',
    'chatShares',
    'sharingSettings',
  ],
  codeassist: ['authCodes'],
  embedded: ['virtualAccounts', 'embeddedVisitors', 'embeddedUsage'],
  governance: ['retentionSettings', 'piiSettings', 'dataExports'],
  // ssoHandoffs: the one-time codes identity hands the login page after a single sign-on.
  identity: ['identityAccounts', 'identitySessions', 'refreshTokens', 'oobCodes', 'ssoHandoffs'],
  knowledge: ['knowledgeSources', 'knowledgeDocuments', 'knowledgeChunks'],
  memory: ['memories', 'memorySettings'],
  prompts: ['prompts', 'promptVersions'],
  providers: ['providerConfigs', 'domainAiSettings'],
  santitos: ['santitos'],
  sso: ['ssoProviders'],
  tools: ['mcpServers', 'toolPolicies', 'mcpTokens'],
  usage: ['usageEvents', 'usageDaily', 'modelPrices', 'budgets', 'budgetPeriods', 'budgetReservations'],
  /** lib/scheduler.ts, not a module. */
  lib: ['jobLeases', 'jobRuns'],
};

/** Named cross-table reads: the file, and the other modules' tables it may read. */
const CROSS_TABLE_READS: Record<string, string[]> = {
  // The storage quota sums what a domain stores, in the transaction that holds its lock.
  'storage/usage.ts': ['attachments', 'santitos', 'knowledgeDocuments'],
  // A draft or an embed visitor's empty chat is purged; whether its owner is a visitor is checked in
  // the statement that deletes it, so a message sent meanwhile still keeps the chat.
  'chats/abandoned-chats.ts': ['users'],
  // People who lost access lose their MCP tokens: who is still active is read in the statement
  // that deletes them, whichever replica hears of the change.
  'tools/oauth.ts': ['users'],
};

const ownerOf = new Map(
  Object.entries(OWNERS).flatMap(([mod, tables]) => tables.map((t) => [t, mod] as const)),
);

/** The names each non-test file under modules/ imports from db/schema, as `module/file → names`. */
function schemaImports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const mod of readdirSync(MODULES, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const dir = path.join(MODULES, mod.name);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const src = readFileSync(path.join(dir, file), 'utf8');
      const names = [...src.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[./]+\/db\/schema\/[^']*'/g)]
        .flatMap((m) => (m[1] ?? '').split(','))
        .map(
          (n) =>
            n
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0] ?? '',
        )
        .filter(Boolean);
      if (names.length) out.set(`${mod.name}/${file}`, names);
    }
  }
  return out;
}

/** Other modules' tables each file names, beyond what it is allowed. */
function trespasses(allowed: Record<string, string[]>): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [file, names] of schemaImports()) {
    const mod = file.split('/')[0];
    const foreign = names.filter((n) => {
      const owner = ownerOf.get(n);
      return owner !== undefined && owner !== mod && !(allowed[file] ?? []).includes(n);
    });
    if (foreign.length) found[file] = foreign.sort();
  }
  return found;
}

describe('table ownership', () => {
  it('every table of db/schema has one owner', () => {
    const tables = readdirSync(SCHEMA)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [
        ...readFileSync(path.join(SCHEMA, f), 'utf8').matchAll(/export const (\w+) = pgTable\(/g),
      ])
      .map((m) => m[1]);
    expect(tables.filter((t) => t && !ownerOf.has(t))).toEqual([]);
    expect(ownerOf.size).toBe(Object.values(OWNERS).flat().length);
  });

  it('a module names only its own tables, save the named cross-table reads', () => {
    expect(trespasses(CROSS_TABLE_READS)).toEqual({});
  });

  it('lists no exception that is not needed', () => {
    const all = trespasses({});
    for (const [file, tables] of Object.entries(CROSS_TABLE_READS)) {
      expect({ file, tables: all[file] ?? [] }).toEqual({ file, tables: [...tables].sort() });
    }
  });

  it('catches a module reading another one’s table', () => {
    // The parser itself: without the exceptions, the known cross-table reads show up.
    expect(trespasses({})['storage/usage.ts']).toEqual(['attachments', 'knowledgeDocuments', 'santitos']);
  });
});
