import { parseArgs } from 'node:util';
import { type Role, RoleSchema } from '@assistente/contracts';
import { buildApp } from '../app.ts';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { DataDirBusyError, rememberedUrl } from '../db/data-dir-lock.ts';
import { AppError } from '../lib/errors.ts';
import { provisionUser, randomPassword } from '../modules/accounts/provision.ts';
import { IdentityError } from '../modules/identity/errors.ts';

/** sysexits(3): the caller can tell a typo from a refused request from a broken setup. */
const EXIT = { ok: 0, failed: 1, usage: 64, data: 65, busy: 75, config: 78 } as const;

/** PUBLIC_URL or PORT when given; else where the server last listened on this DATA_DIR. */
function signInBase(config: Config): string {
  if (config.PUBLIC_URL || process.env.PORT) return config.publicUrl;
  return rememberedUrl(config.dataDir) ?? config.publicUrl;
}

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-user   Create a user with its identity account; the domain and department are
                created when missing.
    --email <email>         required
    --password <password>   the first password (default: a random one, printed)
    --role <role>           Viewer | Editor | Admin | SuperAdmin (default: Viewer)
    --domain <domain>       default: the email's domain
    --department <name|id>  default: the domain's first department, else "Geral"
    --name <display name>   default: the part of the email before @
    --premium               mark the domain premium
    --accept-eula           store the EULA as already accepted (default: the user accepts it
                            at first sign-in)

Configuration comes from the environment, as for the server (DATA_DIR, DATABASE_URL, ...).
With the embedded database (no DATABASE_URL), stop the server first: the command refuses to
run beside it (exit code 75).

  --help, -h    show this help

Exit codes: 0 done, 64 usage error, 65 refused (invalid input, weak password, user exists),
75 the server is running on the embedded database, 78 bad configuration, 1 anything else.
`;

class UsageError extends Error {}

async function createUser(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      domain: { type: 'string' },
      department: { type: 'string' },
      name: { type: 'string' },
      premium: { type: 'boolean' },
      'accept-eula': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  if (!values.email) throw new UsageError('--email is required');
  let role: Role = 'Viewer';
  if (values.role !== undefined) {
    const parsed = RoleSchema.safeParse(values.role);
    if (!parsed.success) throw new UsageError(`--role must be one of Viewer, Editor, Admin, SuperAdmin`);
    role = parsed.data;
  }
  const generated = values.password === undefined;
  const password = values.password ?? randomPassword();

  const config = loadConfig();
  // Library deprecation notices are for developers, not for an operator's terminal.
  process.removeAllListeners('warning');
  process.on('warning', (w) => {
    if (!/Deprecation/.test(w.name)) process.stderr.write(`${w.name}: ${w.message}\n`);
  });
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp({ config, bootstrap: false, logger: false, databaseHolder: 'admin' });
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    // PGlite belongs to one process: a user written beside a running server would be lost.
    const url = err.holder.url ?? signInBase(config);
    process.stderr.write(
      `${err.message}\nThe embedded database is used by one process at a time: stop the server (Ctrl+C where it runs) ` +
        `and run this command again, or add the user in the web app at ${url}/users.\n`,
    );
    return EXIT.busy;
  }
  const { app, ctx } = built;
  try {
    const result = await provisionUser(ctx, {
      email: values.email,
      password,
      role,
      eulaAccepted: values['accept-eula'] === true,
      ...(values.domain ? { domain: values.domain } : {}),
      ...(values.department ? { department: values.department } : {}),
      ...(values.name ? { displayName: values.name } : {}),
      ...(values.premium ? { premium: true } : {}),
    });
    const made = [
      result.createdDomain ? `domain ${result.domain.id}` : undefined,
      result.createdDepartment ? `department ${result.department.displayName}` : undefined,
    ].filter(Boolean);
    process.stdout.write(
      `Created ${result.user.role} ${result.user.email} in ${result.domain.id} / ${result.department.displayName}` +
        `${made.length ? ` (new ${made.join(', ')})` : ''}${result.createdAccount ? '' : ' (existing identity account, password reset)'}\n`,
    );
    if (generated) process.stdout.write(`Password: ${password}\n`);
    process.stdout.write(`Sign in at ${signInBase(config)}/auth/login\n`);
    return EXIT.ok;
  } finally {
    await app.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      case 'create-user':
        return await createUser(rest);
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err)) {
      // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed options.
      process.stderr.write(`${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return EXIT.config;
    }
    if (err instanceof AppError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return err.status < 500 ? EXIT.data : EXIT.failed;
    }
    if (err instanceof IdentityError) {
      // e.g. PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Password must have at least 6 characters
      process.stderr.write(`Error: ${err.message}\n`);
      return err.status < 500 ? EXIT.data : EXIT.failed;
    }
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failed;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(EXIT.failed);
  },
);
