import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCodeStandin } from '../apps/server/src/test/code-interpreter-standin.ts';
import { startConfluenceStandin } from '../apps/server/src/test/confluence-standin.ts';
import { startLlmFixture } from '../apps/server/src/test/llm-fixture.ts';
import { startOAuthMcpStandin } from '../apps/server/src/test/mcp-oauth-standin.ts';
import { startMcpStandin } from '../apps/server/src/test/mcp-standin.ts';
import { startOidcProvider } from '../apps/server/src/test/oidc-provider.ts';
import { startSmtpSink } from '../apps/server/src/test/smtp-sink.ts';
import { startWebStandin } from '../apps/server/src/test/web-standin.ts';
import {
  chatPeople,
  FIXTURE_ANSWER,
  FIXTURE_DELAY_MS,
  FIXTURE_MODEL,
  SLOW_ANSWER_DELAY_MS,
  SLOW_ANSWER_MARK,
} from './fixtures/chat-people.ts';
import {
  CONFLUENCE_PAGES,
  largeSpacePages,
  STANDIN_BODY_DELAY_MS,
  STANDIN_PAGE_SIZE,
} from './fixtures/confluence.ts';
import { PASSWORD, people } from './fixtures/env.ts';
import { SSO } from './fixtures/sso.ts';
import { toolScript } from './fixtures/tools.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Whether nothing listens on `port` at either address `localhost` may resolve to. */
async function portFree(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRNOTAVAIL'));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}

/**
 * The e2e server's port: E2E_PORT, or 3210 when free, else a free one. Set in the environment,
 * which the workers inherit (playwright.config.ts and the specs read it), so a server left running
 * on 3210 by someone else can never stand in for this run's.
 */
async function e2ePort(): Promise<number> {
  const asked = process.env.E2E_PORT;
  if (asked) {
    if (!(await portFree(Number(asked))))
      throw new Error(`E2E_PORT ${asked} is in use: stop what listens there`);
    return Number(asked);
  }
  // The first-run spec starts servers of its own at port + 50 and + 51.
  let port = 3210;
  while (!(await portFree(port)) || !(await portFree(port + 50)) || !(await portFree(port + 51))) port += 100;
  process.env.E2E_PORT = String(port);
  return port;
}

/**
 * Starts a real SMTP sink and the built app on the embedded default (PGlite), seeded through the
 * admin CLI — both compiled, as `npm start` runs them.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Compiles the server when its sources changed (a no-op otherwise), so specs never test stale code.
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building the server failed:\n${build.stdout}\n${build.stderr}`);

  const work = mkdtempSync(path.join(tmpdir(), 'assistente-e2e-'));
  const dataDir = path.join(work, 'data');
  const mailDir = path.join(work, 'mail');
  mkdirSync(mailDir, { recursive: true });

  let n = 0;
  const smtp = await startSmtpSink({
    onMail: ({ to, raw }) =>
      writeFileSync(path.join(mailDir, `${Date.now()}-${n++}.json`), JSON.stringify({ to, raw })),
  });

  // A real OpenAI-compatible streaming server stands in for the model provider (instance-wide env).
  const llm = await startLlmFixture({
    script: { text: FIXTURE_ANSWER, delayMs: FIXTURE_DELAY_MS },
    record: false,
    // A question the journey stops mid-answer streams slowly: on a machine the e2e run itself
    // loads (2 browsers, the server), the stop click landed after a 3 s answer had ended.
    scriptFor: (body) =>
      JSON.stringify(body).includes(SLOW_ANSWER_MARK)
        ? { text: FIXTURE_ANSWER, delayMs: SLOW_ANSWER_DELAY_MS }
        : toolScript(body),
  });
  // Real MCP servers (the official SDK) for the tools journeys: an open one, and one behind OAuth.
  const mcp = await startMcpStandin();
  const mcpOAuth = await startOAuthMcpStandin({ metadata: 'well-known' });
  // A SearXNG instance and the pages its results point to, for the web search journey.
  const web = await startWebStandin();
  // A Code Interpreter API (LibreChat's protocol) for the chart-from-a-CSV journey.
  const code = await startCodeStandin();

  // A Confluence Cloud site (REST API v2) with a space of HR pages and a larger one of policies,
  // for the knowledge journeys.
  const confluence = await startConfluenceStandin();
  confluence.addSpace('RH', 'Recursos Humanos');
  for (const [id, title, body] of CONFLUENCE_PAGES) confluence.putPage('RH', { id, title, body });
  confluence.addSpace('POL', 'Políticas');
  for (const [id, title, body] of largeSpacePages()) confluence.putPage('POL', { id, title, body });
  confluence.setMaxPageSize(STANDIN_PAGE_SIZE);
  confluence.setBodyDelay(STANDIN_BODY_DELAY_MS);

  const port = await e2ePort();
  const baseUrl = `http://localhost:${port}`;

  // A real OpenID Connect provider (oidc-provider) stands in for Google: the instance-wide one of OIDC_*.
  const oidc = await startOidcProvider({
    clients: [
      {
        client_id: SSO.clientId,
        client_secret: SSO.clientSecret,
        redirect_uris: [`${baseUrl}/identity/sso/env/callback`],
      },
    ],
  });
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    SMTP_URL: smtp.url,
    PREMIUM_DOMAINS: 'acme.test',
    EDITOR_DEEP_LINK: `${baseUrl}/editor-callback`,
    // The same server under another loopback origin plays a browser-hosted editor (code-server).
    EDITOR_CALLBACK_ORIGINS: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    OPENAI_BASE_URL: llm.baseUrl,
    OPENAI_API_KEY: 'test',
    DEFAULT_MODEL: FIXTURE_MODEL,
    // The fixture's OpenAI Images API draws for santitos with generate_image.
    IMAGE_MODEL: 'openai:gpt-image-1',
    CODE_INTERPRETER_URL: code.url,
    CODE_INTERPRETER_API_KEY: code.apiKey,
    // The fixture is on loopback, which the SSRF rule refuses to domain Admins' providers.
    // …and so is the identity provider, which a SuperAdmin may also add from /integration.
    // …and so is the Confluence site an Admin connects.
    // …and so is the MCP server an Admin adds, and the SearXNG instance with its pages.
    PROVIDER_URL_ALLOWLIST: [
      llm.baseUrl,
      oidc.issuer,
      confluence.url,
      mcp.url,
      mcpOAuth.url,
      mcpOAuth.issuer,
      web.origin,
    ]
      .map((u) => new URL(u).host)
      .join(','),
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: SSO.clientId,
    OIDC_CLIENT_SECRET: SSO.clientSecret,
    OIDC_DISPLAY_NAME: SSO.displayName,
    OIDC_DOMAINS: SSO.domains,
    OIDC_AUTO_PROVISION: 'true',
    OIDC_DEFAULT_ROLE: 'Viewer',
  };
  // Read by the specs (workers inherit the runner's environment).
  process.env.E2E_LLM_URL = llm.baseUrl;
  process.env.E2E_OIDC_ISSUER = oidc.issuer;
  process.env.E2E_MCP_URL = mcp.url;
  process.env.E2E_MCP_OAUTH_URL = mcpOAuth.url;
  process.env.E2E_SEARXNG_URL = web.searxngUrl;
  process.env.E2E_CONFLUENCE = JSON.stringify({
    url: confluence.url,
    email: confluence.email,
    token: confluence.token,
  });

  for (const p of [...Object.values(people), ...Object.values(chatPeople)]) {
    const r = spawnSync(
      process.execPath,
      [
        'apps/server/dist/admin.js',
        'create-user',
        '--email',
        p.email,
        '--password',
        PASSWORD,
        '--role',
        p.role,
        '--domain',
        p.domain,
        '--name',
        p.name,
        // Everyone accepts the EULA up front, except the people whose specs are about accepting it.
        ...('pendingEula' in p && p.pendingEula ? [] : ['--accept-eula']),
      ],
      { cwd: root, env, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`seeding ${p.email} failed:\n${r.stdout}\n${r.stderr}`);
  }

  const server: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Checked first: a server left running on the port would otherwise answer for ours.
    if (server.exitCode !== null) throw new Error(`the e2e server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await smtp.close();
    await llm.close();
    await oidc.close();
    await confluence.close();
    await mcp.close();
    await mcpOAuth.close();
    await web.close();
    await code.close();
    rmSync(work, { recursive: true, force: true });
  };
}
