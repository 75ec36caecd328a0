/// <reference types="vitest/config" />
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import { LOCALE_PARTS, type LocalePart, pickPart } from './src/lib/i18n/parts.ts';

const SERVER_DEV_ORIGIN = 'http://localhost:3000';

/**
 * Emits the Nuxt-style app manifest the running app polls (docs/ARCHITECTURE.md#calling-the-api "Build manifest"):
 * `builds/latest.json` names the newest build, `builds/meta/{id}.json` carries its route rules.
 */
function buildManifest(buildId: string): Plugin {
  const latest = (timestamp: number) => JSON.stringify({ id: buildId, timestamp });
  return {
    name: 'assistente:build-manifest',
    // Once per build, beside the main app: the embedded chat's build shares its id.
    applyToEnvironment: (environment) => environment.name === 'client',
    configureServer(server) {
      server.middlewares.use('/builds/latest.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('cache-control', 'no-cache');
        res.end(latest(Date.now()));
      });
    },
    generateBundle() {
      const timestamp = Date.now();
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: latest(timestamp) });
      this.emitFile({
        type: 'asset',
        fileName: `builds/meta/${buildId}.json`,
        source: JSON.stringify({
          id: buildId,
          timestamp,
          matcher: { static: {}, wildcard: {} },
          prerendered: [],
        }),
      });
    },
  };
}

/**
 * Serves `locales/{lang}.json?part=shell|app` as a module of the sections of that locale file that
 * belong to the part (src/lib/i18n/parts.ts), so each part is its own chunk.
 */
function localeParts(): Plugin {
  const PREFIX = '\0assistente-locale-part/';
  return {
    name: 'assistente:locale-parts',
    enforce: 'pre',
    resolveId(source, importer) {
      const [file = '', query = ''] = source.split('?');
      const part = new URLSearchParams(query).get('part');
      if (!part || !file.endsWith('.json') || !importer) return null;
      const absolute = path.resolve(path.dirname(importer.split('?')[0] ?? importer), file);
      // The id ends in .js so the dev server serves it as a script.
      return `${PREFIX}${part}${absolute.slice(0, -'.json'.length)}.js`;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [, part = '', file = ''] = /^[^/]*\/(\w+)(.*)\.js$/.exec(id) ?? [];
      if (!(LOCALE_PARTS as readonly string[]).includes(part)) this.error(`Unknown locale part ${part}`);
      const json = `${file}.json`;
      this.addWatchFile(json);
      const messages = pickPart(JSON.parse(await readFile(json, 'utf8')), part as LocalePart);
      return `export default ${JSON.stringify(messages)};`;
    },
  };
}

/**
 * Emits `embed.js`, the launcher script other sites load (src/embed/embed.ts): a file of its own,
 * minified, bundling only src/embed (its look is shared with the Embeds tab's preview) and no chunk
 * of the app, so it stays small (≤ 6 KB gzipped).
 */
function embedScript(): Plugin {
  const dir = path.resolve(import.meta.dirname, 'src/embed');
  const source = path.join(dir, 'embed.ts');
  const build = async () => {
    const out = await esbuild({
      entryPoints: [source],
      bundle: true,
      write: false,
      minify: true,
      target: 'es2019',
      format: 'iife',
      logLevel: 'silent',
      // A script on someone else's page: no "use strict" prologue from the app's tsconfig.
      tsconfigRaw: {},
      // Nothing of the app may come in with it: only src/embed's own files.
      plugins: [
        {
          name: 'embed-only',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return undefined;
              const target = path.resolve(args.resolveDir, args.path);
              return path.dirname(target) === dir
                ? undefined
                : { errors: [{ text: `embed.js imports only from src/embed, not ${args.path}` }] };
            });
          },
        },
      ],
    });
    return out.outputFiles[0]?.text ?? '';
  };
  return {
    name: 'assistente:embed-script',
    applyToEnvironment: (environment) => environment.name === 'client',
    configureServer(server) {
      server.middlewares.use('/embed.js', (_req, res) => {
        build().then(
          (code) => {
            res.setHeader('content-type', 'text/javascript; charset=utf-8');
            res.end(code);
          },
          (err: unknown) => {
            res.statusCode = 500;
            res.end(String(err));
          },
        );
      });
    },
    async generateBundle() {
      for (const file of await readdir(dir)) this.addWatchFile(path.join(dir, file));
      this.emitFile({ type: 'asset', fileName: 'embed.js', source: await build() });
    },
  };
}

const nodeRequire = createRequire(import.meta.url);

/** A file of React Router's production build (its package exports only the development one). */
function reactRouterBuild(file: string): string {
  const pkg = nodeRequire.resolve('react-router/package.json');
  return path.join(path.dirname(pkg), 'dist', 'production', file);
}

/** The build of the embedded chat's page (embedded.html), beside the main app's `client`. */
const EMBEDDED = 'embedded';

/** The embedded chat's stand-in for React Router: the part of its API the page uses. */
const EMBEDDED_ROUTER = path.resolve(import.meta.dirname, 'src/app/embedded/router.tsx');

/**
 * Which React Router a build gets. The main app: React Router's production build — React Router 7
 * exports only its development build (remix-run/react-router#12532, #14102), whose dev-only warnings
 * would ship to every page. The embedded chat: app/embedded/router.tsx in its place, ~29 KB
 * gzipped less before a visitor can send; any other React Router module there fails the build.
 */
function routerPerBuild(): Plugin {
  return {
    name: 'assistente:router-per-build',
    enforce: 'pre',
    apply: 'build',
    resolveId(source) {
      if (!/^react-router(\/|$)/.test(source)) return null;
      if (this.environment.name === EMBEDDED) {
        if (source === 'react-router') return EMBEDDED_ROUTER;
        this.error(`The embedded chat has no ${source}: app/embedded/router.tsx stands in for react-router`);
      }
      if (source === 'react-router') return reactRouterBuild('index.mjs');
      if (source === 'react-router/dom') return reactRouterBuild('dom-export.mjs');
      return null;
    },
  };
}

/** Paths the server answers with the embedded chat's page (contracts' WebRoutes, layout `embedded`). */
const EMBEDDED_PAGE = /^(\/(en|es|pt-BR))?\/embedded\/[^/]+\/chats(\/[^/]+)?$/;

/** Under `vite` (dev) the embedded pages are embedded.html too, as the server serves them. */
function embeddedPageInDev(): Plugin {
  return {
    name: 'assistente:embedded-page-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname = '', query] = (req.url ?? '').split('?');
        if (req.method === 'GET' && EMBEDDED_PAGE.test(pathname))
          req.url = `/embedded.html${query === undefined ? '' : `?${query}`}`;
        next();
      });
    },
  };
}

/**
 * One build id for the whole `vite build`: Vite loads this file again for each environment it
 * builds, and both pages must agree on it with builds/latest.json.
 */
function sharedBuildId(): string {
  const shared = globalThis as { [BUILD_ID_KEY]?: string };
  shared[BUILD_ID_KEY] ??= randomUUID();
  return shared[BUILD_ID_KEY];
}
const BUILD_ID_KEY = Symbol.for('assistente.buildId');

/** A feature's public index: only re-exports, so importing one name never runs (or ships) the others. */
const FEATURE_INDEX = /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;

/**
 * What the auth pages share with the signed-in screens: Mantine's text field, group, alert, anchor
 * and theme icon, what every Tabler icon is made with, the alert, code and language icons, the
 * logo and the language picker. Left in the auth chunk, they made /chats and the share page
 * download the login page with them.
 */
const SHARED_CONTROLS = [
  /[\\/]node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Alert|Anchor|CloseButton|Group|Input|InputBase|TextInput|ThemeIcon)[\\/]/,
  /[\\/]node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconAlertCircle|IconChevronDown|IconCode|IconLanguage))\.mjs$/,
  /[\\/]src[\\/](ui[\\/](Logo|BrandIcon)\.tsx|app[\\/]shell[\\/]LanguageSelect\.|lib[\\/]i18n[\\/]useChangeLanguage\.ts)/,
];

/**
 * The chats screen's own code (its layout, views, hooks and the agents socket), less what loads
 * on demand (the parameters panel, the Markdown renderer). Its group takes what these import that
 * the entry does not have (the shell, Mantine's parts, icons, TanStack Query's observers): /chats
 * loads ~13 files instead of ~80, each gzipped on its own (~25 KB less, issue 30). The home and
 * share pages load it too; it is mostly what they would fetch anyway, in more files.
 */
const CHATS_SCREEN =
  /[\\/]src[\\/](features[\\/]chats[\\/](components|hooks|lib)[\\/](?!ParamsPanel\.)|app[\\/]layouts[\\/]ChatsLayout\.tsx$)/;

/** The embedded chat's screen and its two pages (a visitor sees both): its chunk group starts from them. */
const EMBEDDED_CHAT = /[\\/]src[\\/]features[\\/]embed-visitor[\\/]EmbeddedChat(s?Page)?\.tsx$/;

/** The auth route's entry modules: its chunk group starts from them. */
const AUTH_ROUTE = [
  /[\\/]src[\\/]app[\\/]layouts[\\/]AuthLayout\.tsx$/,
  /[\\/]src[\\/]features[\\/]auth[\\/]components[\\/]LoginPage\.tsx$/,
];

export default defineConfig(({ command, mode }) => {
  const buildId = mode === 'test' ? 'test' : command === 'build' ? sharedBuildId() : 'dev';
  return {
    plugins: [
      react(),
      buildManifest(buildId),
      localeParts(),
      embedScript(),
      routerPerBuild(),
      embeddedPageInDev(),
    ],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
    server: {
      port: 5173,
      proxy: {
        '/api': { target: SERVER_DEV_ORIGIN, ws: true },
        '/identity': SERVER_DEV_ORIGIN,
        '/runtime-config.json': SERVER_DEV_ORIGIN,
      },
    },
    preview: {
      proxy: {
        '/api': { target: SERVER_DEV_ORIGIN, ws: true },
        '/identity': SERVER_DEV_ORIGIN,
        '/runtime-config.json': SERVER_DEV_ORIGIN,
      },
    },
    build: {
      target: 'es2022',
      // Browsers without modulepreload (Firefox < 115, Safari < 17) still load every module, just
      // without the early fetch; the polyfill cost every page, the login page included, its bytes.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        treeshake: {
          // The contracts are plain declarations: a chunk only gets the modules it uses, so the
          // login page does not carry the zod schemas of the signed-in screens. All but `jitless`,
          // imported for its effect alone (it configures zod before any schema is built).
          moduleSideEffects: (id: string) =>
            (/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id) && !/[\\/]jitless\.ts$/.test(id)) ||
            FEATURE_INDEX.test(id)
              ? false
              : undefined,
        },
      },
      sourcemap: true,
      // Report gzip sizes: the /auth/login JS budget is checked against them.
      reportCompressedSize: true,
    },
    // `vite build` builds the main app (index.html), then the embedded chat's page (embedded.html)
    // into the same directory, each with its own chunks: the embedded one gets a router of its own.
    builder: {
      async buildApp(builder) {
        const { client, [EMBEDDED]: embedded } = builder.environments;
        if (!client || !embedded) throw new Error('The app and the embedded chat are built together');
        await builder.build(client);
        await builder.build(embedded);
      },
    },
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Without groups rolldown splits the login page's pieces by which other pages share
              // them: ~30 files of a few hundred bytes. The groups make /auth/login load the entry
              // (framework and app shell) and one auth chunk.
              codeSplitting: {
                groups: [
                  {
                    // Everything the entry imports statically (React, React Router, Mantine's base,
                    // the app shell) stays in the entry chunk.
                    name: 'index',
                    tags: ['$initial'],
                    priority: 3,
                  },
                  {
                    // The login form's building blocks that other screens use too: a chunk of their
                    // own, so a signed-in screen does not download the login page with them.
                    name: 'controls',
                    test: (id: string) => SHARED_CONTROLS.some((shared) => shared.test(id)),
                    priority: 2,
                  },
                  {
                    // The auth layout and login page with what they import beyond the entry: the
                    // form components. Signed-in pages that share some of them load this chunk too
                    // (small, and usually cached from the login); nothing signed-in-only lands here.
                    name: 'auth',
                    test: (id: string) => AUTH_ROUTE.some((root) => root.test(id)),
                    priority: 1,
                  },
                  { name: 'chats', test: CHATS_SCREEN, priority: 1 },
                ],
              },
            },
          },
        },
      },
      ...(command === 'build'
        ? {
            [EMBEDDED]: {
              consumer: 'client' as const,
              build: {
                // After the main app's build, into its directory: never empty it.
                emptyOutDir: false,
                rolldownOptions: {
                  input: path.resolve(import.meta.dirname, 'embedded.html'),
                  output: {
                    codeSplitting: {
                      // What the entry imports statically (React, Mantine's base, the page's
                      // shell) is one file; the chat's code comes beside it, loaded at once, in
                      // one file too: the Mantine parts it shares with the panels it opens on
                      // demand would otherwise be files of their own, each gzipped apart.
                      groups: [
                        { name: EMBEDDED, tags: ['$initial'], priority: 1 },
                        { name: 'EmbeddedChat', test: EMBEDDED_CHAT, priority: 0 },
                      ],
                    },
                  },
                },
              },
            },
          }
        : {}),
    },
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
    },
  };
});
