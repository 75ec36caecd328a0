import {
  type AuthKind,
  ErrorBodySchema,
  type ErrorCode,
  ErrorStatus,
  type Role,
} from '@assistente/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import type { AppContext } from '../context.ts';
import { type Caller, type CallerResolvers, callerKinds, checkRouteNeeds } from '../lib/caller.ts';
import { unauthenticated } from '../lib/errors.ts';
import { bearerToken, wellFormedToken } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** API routes registered without `config.auth` or declared responses (the openapi test lists them). */
    undeclaredRoutes: readonly string[];
    /** Every API route registered, as `METHOD /path/{param}`: what the document must hold. */
    apiRoutes: readonly string[];
  }
  interface FastifyContextConfig {
    /**
     * Every route under /api declares who may call it (a list when several kinds may); the auth
     * hook resolves the caller before validation. `public` in a list makes the caller optional.
     */
    auth?: AuthKind | readonly AuthKind[];
    /** Least role the caller needs for every use of the route (finer rules live in policies). */
    role?: Role;
    /** Only callers of a premium domain (403 otherwise). */
    premium?: boolean;
  }
}

/** Route prefixes that are the product's HTTP API: each of their routes must be declared. */
const API_PREFIXES = ['/api/', '/identity/', '/v1/'];
const isApi = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));
/** The document and its reference page, served by this plugin itself. */
const isDocs = (url: string) => url === '/api/openapi.json' || url.startsWith('/api/docs');

/** The error body under `status` for each code's status: for a route's `response` declaration. */
export function errorResponses(...codes: ErrorCode[]): Record<number, ZodType> {
  const out: Record<number, ZodType> = {};
  for (const code of codes) out[ErrorStatus[code]] = ErrorBodySchema;
  return out;
}

/**
 * The onRequest hook of a route whose `config.auth` names caller kinds: resolves the caller from
 * the bearer token, checks the least role and premium, and leaves it in `request.caller`. Attached
 * per route, with the route's needs read once, and callback-style: it runs on every API request,
 * and each promise hop costs.
 */
function callerHook(callers: CallerResolvers, needs: FastifyContextConfig): onRequestHookHandler | undefined {
  const auth = needs.auth;
  const kinds = callerKinds(auth);
  if (kinds.length === 0) return undefined;
  // `public` in a list: the caller is optional, but a token, when sent, must be good.
  const optional = Array.isArray(auth) && auth.includes('public');
  // Made once per route: a closure made per request costs an allocation (and, under the
  // TypeScript loader the benches run, a defineProperty naming it: ≈ 1 µs of a cached request).
  const admit = (request: FastifyRequest, caller: Caller, done: HookHandlerDoneFunction) => {
    try {
      checkRouteNeeds(caller, needs);
    } catch (err) {
      return done(err as Error);
    }
    request.caller = caller;
    done();
  };
  return (request, _reply, done) => {
    const token = bearerToken(request);
    if (!token) return done(optional ? undefined : unauthenticated());
    // Most requests find everything cached: answer them without a promise.
    const cached = callers.peek(kinds, token);
    if (cached) return admit(request, cached, done);
    if (!wellFormedToken(token)) return done(unauthenticated());
    callers.resolve(kinds, token).then((caller) => admit(request, caller, done), done);
  };
}

/**
 * The `config` most routes declare, written once: a signed-in person, or one of at least Admin or
 * SuperAdmin role. Their `auth` types the handler's `request.caller` (`CallerFor` in lib/caller.ts).
 */
export const RouteNeeds = {
  user: { auth: 'user' },
  admin: { auth: 'user', role: 'Admin' },
  superAdmin: { auth: 'user', role: 'SuperAdmin' },
} as const;

/** What any declared route may answer besides its own responses. */
function commonErrors(
  schema: FastifySchema,
  auth: AuthKind | readonly AuthKind[],
  methods: readonly string[],
): ErrorCode[] {
  const codes: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL'];
  // Whatever the route reads, a body sent to it is parsed first: too big, of a type no parser
  // takes, or not JSON, it is refused before the route sees it.
  const takesBody = Boolean(schema.body) || methods.some((m) => m !== 'GET');
  if (takesBody) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (takesBody || schema.querystring || schema.params) codes.push('VALIDATION_FAILED');
  if (callerKinds(auth).length > 0) codes.push('UNAUTHENTICATED', 'FORBIDDEN');
  return codes;
}

/**
 * Declared routes: zod schemas from contracts validate params, query and body before the handler
 * (fastify-type-provider-zod) and document every operation at GET /api/openapi.json, with a
 * reference page at /api/docs served from this server (nothing fetched from elsewhere).
 * Each route that names caller kinds gets an onRequest hook (`callerHook`) that resolves the caller —
 * before the body is read, so an anonymous upload is refused without reading it — checks the
 * route's least role and premium, and leaves it in `request.caller` (typed by the route’s `config.auth`: `CallerFor` in lib/caller.ts).
 */
export async function registerDeclaredRoutes(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'config' | 'services'>,
): Promise<void> {
  const { config } = ctx;
  const undeclared: string[] = [];
  const routes: string[] = [];
  app.decorate('undeclaredRoutes', undeclared);
  app.decorate('apiRoutes', routes);
  app.setValidatorCompiler(validatorCompiler);
  // Responses are declared for the document and checked by the tests (every test parses what it
  // reads with the contract); serialising them through zod again on every request would cost
  // each answer for nothing the tests do not already prove.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.addHook('onRoute', (route: RouteOptions) => {
    const url = route.url;
    const authHook = callerHook(ctx.services.callers, route.config ?? {});
    // First of the route's own hooks; routes nobody needs to sign in to pay nothing.
    if (authHook) route.onRequest = [authHook, ...[route.onRequest ?? []].flat()];
    // HEAD shadows each GET and OPTIONS answers CORS preflights: neither is an operation.
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
      (m) => m !== 'HEAD' && m !== 'OPTIONS',
    );
    if (!isApi(url) || isDocs(url) || methods.length === 0) return;
    // A literal colon is written '::' in a Fastify path (Identity Toolkit's accounts:signUp).
    const path = url.replace(/\/:(\w+)/g, '/{$1}').replaceAll('::', ':');
    for (const m of methods) routes.push(`${m} ${path}`);
    const auth = route.config?.auth;
    if (!auth || (!route.schema?.response && !route.websocket)) {
      undeclared.push(`${String(route.method)} ${url}`);
      return;
    }
    // The identity service answers in Identity Toolkit's envelope, the OpenAI-compatible API in
    // OpenAI's: both declared by their routes.
    if (route.schema?.response && !url.startsWith('/identity/') && !url.startsWith('/v1/')) {
      route.schema.response = {
        ...errorResponses(...commonErrors(route.schema, auth, methods)),
        ...(route.schema.response as Record<number, unknown>),
      };
    }
  });

  app.decorateRequest('caller', null);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Assistente API',
        version: '1',
        description:
          'Every service of an Assistente server. Errors answer `{"error":{"status","code","message"}}`, ' +
          'except the identity service (/identity), which answers as Google Identity Toolkit does.',
      },
      servers: [{ url: config.PUBLIC_URL ? config.publicUrl : '/' }],
      components: {
        securitySchemes: {
          idToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'A personal API key (`ak_…`)' },
        },
      },
    },
    transform: (input) => {
      // CORS preflights and HEAD shadows are not operations.
      if (input.route.method === 'OPTIONS' || input.route.method === 'HEAD') {
        return { schema: { hide: true }, url: input.url };
      }
      // A prefix's root route is served with and without the slash; the document names it without,
      // as every client calls it (docs/ARCHITECTURE.md#calling-the-api).
      const out = { ...jsonSchemaTransform(input), url: input.url.replace(/(.)\/$/, '$1') };
      const auth = input.route.config?.auth;
      const kinds = callerKinds(auth);
      if (kinds.length > 0) {
        (out.schema as Record<string, unknown>).security = [
          ...(kinds.some((k) => k !== 'apiKey') ? [{ idToken: [] }] : []),
          ...(kinds.includes('apiKey') ? [{ apiKey: [] }] : []),
        ];
      }
      return out;
    },
    // Untagged routes are not the API: health checks, the web app's files and pages.
    hideUntagged: true,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    theme: { title: 'Assistente API' },
    // No validator badge: it would send the document to validator.swagger.io.
    uiConfig: { url: '/api/openapi.json', deepLinking: true, validatorUrl: null },
    // The app's own CSP (plugins/security.ts) holds: every script is a file of this server. The
    // plugin's would add upgrade-insecure-requests, which breaks a server reached over plain http.
    staticCSP: false,
    transformSpecificationClone: true,
  });
}

/** The `:id` of a route's path: any non-empty id up to 100 characters (an unknown one answers 404). */
export const IdParams = z.object({ id: z.string().min(1).max(100) });

/** A file's bytes (avatars, attachments, exports): sent as stored, with their own content type. */
export const BinaryBody = z.unknown().describe('The file’s bytes, with its own content type');
