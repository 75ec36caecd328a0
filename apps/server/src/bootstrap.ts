import { sql } from 'drizzle-orm';
import type { AppContext } from './context.ts';
import type { Db, Tx } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { provisionUser, randomPassword } from './modules/accounts/provision.ts';

/** Replicas starting together queue on this advisory lock; the first creates the admin. */
const BOOTSTRAP_LOCK = 72_616_002;

async function hasAnyUser(db: Db | Tx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).limit(1);
  return rows.length > 0;
}

/** Bootstraps in flight, per database, so calls within one process run one after another. */
const running = new WeakMap<Db, Promise<void>>();

/**
 * First run (docs/ARCHITECTURE.md#configuration): with no user at all, create a SuperAdmin — from ADMIN_EMAIL/ADMIN_PASSWORD,
 * or admin@localhost with a random password printed once — in a premium domain with a first
 * department, EULA accepted. Does nothing once any user exists.
 */
export async function bootstrapFirstRun(ctx: AppContext): Promise<void> {
  // Calls in one process queue here; replicas queue on the advisory lock below.
  const previous = running.get(ctx.db) ?? Promise.resolve();
  const current = previous.catch(() => {}).then(() => runOnce(ctx));
  running.set(ctx.db, current);
  try {
    await current;
  } finally {
    if (running.get(ctx.db) === current) running.delete(ctx.db);
  }
}

async function runOnce(ctx: AppContext): Promise<void> {
  if (await hasAnyUser(ctx.db)) return;
  if (ctx.dbKind === 'postgres') {
    // The transaction only holds the lock: the work runs on other pooled connections and is
    // committed before the lock is released, so the next replica in line sees the user and stops.
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
      if (await hasAnyUser(tx)) return;
      await createFirstAdmin(ctx);
    });
  } else {
    // PGlite is one connection owned by this process: nothing else can race, and a query outside
    // an open transaction would wait for it forever.
    await createFirstAdmin(ctx);
  }
}

async function createFirstAdmin(ctx: AppContext): Promise<void> {
  const { ADMIN_EMAIL, ADMIN_PASSWORD, publicUrl } = ctx.config;
  const fromEnv = ADMIN_EMAIL !== undefined && ADMIN_PASSWORD !== undefined;
  if ((ADMIN_EMAIL === undefined) !== (ADMIN_PASSWORD === undefined)) {
    ctx.log.warn('ADMIN_EMAIL and ADMIN_PASSWORD must be set together; creating admin@localhost instead');
  }
  const email = fromEnv ? ADMIN_EMAIL : 'admin@localhost';
  const password = fromEnv ? ADMIN_PASSWORD : randomPassword();
  const result = await provisionUser(ctx, {
    email,
    password,
    // The product speaks pt-BR first; "Administrador" is also the Spanish word.
    displayName: 'Administrador',
    role: 'SuperAdmin',
    premium: true,
    eulaAccepted: true,
  });
  if (fromEnv) {
    ctx.log.info({ email: result.user.email, domain: result.domain.id }, 'First run: created the SuperAdmin');
  } else {
    // Printed once, to stdout, whatever LOG_LEVEL says: the only way to learn this password.
    process.stdout.write(
      `First run: sign in at ${publicUrl}/auth/login as ${result.user.email} with password ${password}\n`,
    );
  }
}
