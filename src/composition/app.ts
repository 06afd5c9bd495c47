import { Elysia } from 'elysia'
import { CATALOG, type EvidenceMode } from '../catalog'
import { ApiError, type HandlerMap, type Logger, type ProxyTrust } from '../core'
import {
  ClientAddresses,
  ConsoleAuth,
  consoleRoutes,
  type ConsoleSource,
  discoveryRoutes,
  errorFor,
  faviconRoutes,
  freeRoutes,
  frontDoor,
  type McpHandler,
  mcpOriginGuard,
  McpRefusal,
  mcpRoute,
  type Metrics,
  noRoute,
  openapiPlugin,
  paidRoutes,
  pathOf,
  type PeerSource,
  readFormBody,
  type Readiness,
  readJsonBody,
  REQUEST_LIMITS,
  RequestLog,
  type SellerAccess,
  UnpaidAnswers,
} from '../http'
import { type Indexing, paidCaller, type RateLimits } from '../paid-call'
import type { PaymentGate, PaymentOffer } from '../payments'
import type { PaymentLedger } from '../ledger'
import type { McpDeps } from '../mcp/server'
import pkg from '../../package.json' with { type: 'json' }

export interface AppDeps {
  gate: PaymentGate
  ledger: PaymentLedger
  handlers: HandlerMap
  publicBaseUrl: string
  /** MCP_ALLOWED_ORIGINS: origins allowed to call /mcp besides publicBaseUrl's and localhost. */
  mcpAllowedOrigins?: readonly string[]
  logger: Logger
  readiness: () => Promise<Readiness>
  /** The networks a 402 offers (each with the address paid there), shown by the pages and discovery documents. */
  offers: readonly PaymentOffer[]
  metrics?: Metrics
  /** `/metrics` needs this bearer token; `off`: not served (production without METRICS_TOKEN); unset: open. */
  metricsAccess?: { token: string } | 'off'
  limits?: Omit<RateLimits, 'onLimited'>
  /** Reverse proxies whose forwarding header names the client (TRUSTED_PROXIES). */
  trustedProxies?: ProxyTrust
  /** Where the China evidence comes from (live providers configured or not): the documented waits follow it. Default sample. */
  evidence?: EvidenceMode
  /** The data every answer reads (the dataset snapshot): when it changes, remembered 402s are forgotten. */
  dataGeneration?: () => unknown
  /** The datasets' start-up build: paid routes and MCP tool calls wait for it (see paid-call/indexing.ts). */
  indexing?: Indexing
  /** The seller's console (/console), behind the same credential as /metrics. */
  console?: ConsoleSource
}

const pathPattern = (path: string) => new RegExp(`^${path.replace(/:[a-z_]+/g, '[^/]+')}$`)

/** Paths that exist, with their methods, so a wrong method is a 405 rather than a 404. */
const KNOWN_PATHS = [
  ...CATALOG.map((route) => ({ pattern: pathPattern(route.path), methods: route.methods as readonly string[] })),
  { pattern: /^\/v1\/artifacts\/[^/]+$/, methods: ['GET'] },
  { pattern: /^\/(health|ready|metrics|llms\.txt|\.well-known\/x402)$/, methods: ['GET'] },
  { pattern: /^\/(|favicon\.ico|favicon\.svg|openapi|openapi\/json|openapi\/assets\/scalar\.js)$/, methods: ['GET'] },
  { pattern: /^\/mcp$/, methods: ['POST'] },
]

/**
 * Elysia's validation error, for the few free routes that declare a schema (the paid routes' input is
 * checked by the paid call itself, paid-call/validation.ts, which names the parameter).
 */
const invalidRequest = (error: { type?: string }) =>
  new ApiError('invalid_parameter', 'Invalid request parameters.', { parameter: error.type ?? 'request', reason: 'invalid' })

/** One place that turns any failure Elysia reports into the error envelope. */
function errorAnswer(code: unknown, error: unknown, request: Request, id: string, logger: Logger): Response {
  if (error instanceof ApiError) return errorFor(request, error, id)
  // A refusal of readJsonBody, or of the /mcp Host/Origin check before it, arrives wrapped in Elysia's ParseError.
  if (code === 'PARSE' && (error as Error).cause instanceof McpRefusal) return ((error as Error).cause as McpRefusal).response(id)
  if (code === 'PARSE' && (error as Error).cause instanceof ApiError) return errorFor(request, (error as Error).cause as ApiError, id)
  if (code === 'VALIDATION') return errorFor(request, invalidRequest(error as { type?: string }), id)
  if (code === 'PARSE')
    return errorFor(
      request,
      new ApiError('invalid_parameter', 'The request body is not valid JSON.', { parameter: 'body', reason: 'malformed JSON' }),
      id,
    )
  if (code === 'NOT_FOUND') {
    const path = pathOf(request.url)
    const known = KNOWN_PATHS.find((k) => k.pattern.test(path))
    if (known) {
      const refusal = new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}.`, { allowed: known.methods })
      return errorFor(request, refusal, id, { allow: known.methods.join(', ') })
    }
    return noRoute(request, id)
  }
  logger.error('unhandled error', { request_id: id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  return errorFor(request, new ApiError('internal_error', 'Internal error; nothing was charged. Quote the request id to support.'), id)
}

/** Composes the service. Never listens: tests call `app.handle(new Request(...))`, the CLI calls listen. */
// The MCP server package, with the zod and ajv it brings, is a large part of the code a start would load: it
// is loaded on the first /mcp request instead (tens of milliseconds, once) and no start of the service pays for it.
let mcpAdapter: Promise<typeof import('../mcp/server')> | undefined

/** The MCP adapter as the HTTP route's handler: each message answered with the paid-call deps and the request's context. */
function mcpHandler(deps: Omit<McpDeps, 'requestId' | 'clientIp'>): McpHandler {
  return async (request, body, context) =>
    (await (mcpAdapter ??= import('../mcp/server'))).handleMcp({ ...deps, ...context }, request, body)
}

export function createApp(deps: AppDeps) {
  // The socket peer comes from the listening server, there once `listen` was called (in process: none).
  const clients = new ClientAddresses((): PeerSource | null => app.server, deps.trustedProxies)
  const log = new RequestLog(deps.logger, deps.metrics, clients)
  const unpaid = new UnpaidAnswers(log, deps.dataGeneration)
  const mcpGuard = mcpOriginGuard({ publicBaseUrl: deps.publicBaseUrl, allowedOrigins: deps.mcpAllowedOrigins ?? [] })

  const limits = deps.limits && { ...deps.limits, ...(deps.metrics ? { onLimited: deps.metrics.rateLimited } : {}) }
  // One guard for /console, /metrics and /ready's details: a wrong token anywhere counts against its address.
  const seller: SellerAccess =
    deps.metricsAccess === 'off' ? 'off' : deps.metricsAccess ? new ConsoleAuth(deps.metricsAccess.token) : 'open'
  const evidence = deps.evidence ?? 'sample'
  const implemented = new Set(Object.keys(deps.handlers))
  // The one entry to the paid part of the service, for HTTP routes and MCP tools alike.
  const paid = paidCaller({
    gate: deps.gate,
    handlers: deps.handlers,
    ...(limits ? { limits } : {}),
    ...(deps.indexing ? { indexing: deps.indexing } : {}),
  })

  // No global onRequest/onAfterResponse hooks: handlers log through RequestLog (see there why).
  // normalize: false makes `additionalProperties: false` reject unknown parameters instead of dropping them.
  const app = new Elysia({ name: 'market-intel-api', normalize: false })
    .onError(({ code, error, request }) => {
      const response = errorAnswer(code, error, request, log.id(request), deps.logger)
      log.finish(request, response.status)
      return response
    })
    // Every body is read by readJsonBody, within REQUEST_LIMITS, before Elysia parses or validates it;
    // an /mcp body only once its Host and Origin passed (the route checks body-less methods itself).
    .onParse({ as: 'global' }, ({ request, path }) => {
      if (path === '/console/sign-in' || path === '/console/sign-in/') return readFormBody(request, REQUEST_LIMITS.formBytes)
      if (path !== '/mcp') return readJsonBody(request, REQUEST_LIMITS.bodyBytes)
      const refusal = mcpGuard(request)
      if (refusal) throw refusal
      return readJsonBody(request, REQUEST_LIMITS.mcpBodyBytes)
    })
    .use(openapiPlugin({ publicBaseUrl: deps.publicBaseUrl, offers: deps.offers }))
    .use(frontDoor({ publicBaseUrl: deps.publicBaseUrl, offers: deps.offers, implemented, evidence, version: pkg.version }, log))
    .use(faviconRoutes(log))
    .use(
      freeRoutes({
        version: pkg.version,
        ledger: deps.ledger,
        readiness: deps.readiness,
        log,
        seller,
        ...(deps.metrics ? { metrics: { contentType: deps.metrics.contentType, text: deps.metrics.text } } : {}),
      }),
    )
    .use(
      deps.console && seller !== 'off'
        ? consoleRoutes({ source: deps.console, seller, publicBaseUrl: deps.publicBaseUrl, log })
        : new Elysia({ name: 'no-console' }),
    )
    .use(mcpRoute(mcpHandler({ paid, implemented, offers: deps.offers, evidence }), log, mcpGuard))
    .use(discoveryRoutes({ publicBaseUrl: deps.publicBaseUrl, offers: deps.offers, implemented, evidence }, log))
    .use(paidRoutes({ paid, implemented, publicBaseUrl: deps.publicBaseUrl, offers: deps.offers, evidence, log, unpaid }))
  // The unpaid 402s answered ahead of the framework when listening (http/native-routes.ts).
  return Object.assign(app, { unpaid })
}

export type App = ReturnType<typeof createApp>
