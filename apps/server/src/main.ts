import { networkInterfaces } from 'node:os';
import type { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirBusyError, rememberUrl } from './db/data-dir-lock.ts';

/** sysexits(3): 75 = try again later (the data directory is busy), 78 = bad configuration. */
const EXIT_BUSY = 75;
const EXIT_CONFIG = 78;

/** Other addresses a person on this machine or the LAN can open, when listening everywhere. */
function otherAddresses(config: Config): string[] {
  if (config.PUBLIC_URL || (config.HOST !== '0.0.0.0' && config.HOST !== '::')) return [];
  const ips = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4')
    .map((a) => a.address);
  return ips.map((ip) => `http://${ip}:${config.PORT}`);
}

/** What a person starting the server needs: where to open it, where data lives, how to stop. */
function banner(config: Config): string {
  const also = otherAddresses(config);
  const data = config.DATABASE_URL
    ? `PostgreSQL (DATABASE_URL); files in ${config.STORAGE_URL ? 'STORAGE_URL' : config.dataDir}`
    : `${config.dataDir} (embedded database, files, keys, mail outbox)`;
  return [
    '',
    `  Assistente is running at ${config.publicUrl}`,
    ...(also.length ? [`  Also at ${also.join(' · ')}`] : []),
    `  Data:  ${data}`,
    '  Stop:  Ctrl+C',
    '',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    // The database starts first and the rest of the server loads while it does: on the embedded
    // database the two take about as long as each other.
    const opening = openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
    // Handled below, once the app awaits it; until then a refusal (data dir busy) must not count
    // as unhandled.
    opening.catch(() => {});
    const { buildApp } = await import('./app.ts');
    built = await buildApp({ config, opening });
  } catch (err) {
    if (err instanceof DataDirBusyError) {
      process.stderr.write(
        `${err.message}\nStop it first, or start this one with another DATA_DIR (and PORT).\n`,
      );
      process.exit(EXIT_BUSY);
    }
    throw err;
  }
  const { app, dataDirLock } = built;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(
        `Port ${config.PORT} is in use by another program: start with PORT=<another port>.\n`,
      );
      await app.close();
      process.exit(1);
    }
    throw err;
  }
  dataDirLock?.update({ url: config.publicUrl });
  rememberUrl(config);
  if (config.logFormat === 'pretty') process.stdout.write(banner(config));
  else
    app.log.info(
      { url: config.publicUrl, dataDir: config.dataDir },
      `Assistente is running at ${config.publicUrl}`,
    );
}

main().catch((err) => {
  process.stderr.write(
    `Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
