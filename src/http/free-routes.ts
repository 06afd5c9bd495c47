import { Elysia, t } from 'elysia'
import { ledgerUnavailable, LedgerUnavailable, notFound, redactDeep, redactSecrets } from '../core'
import { jsonResponse } from './responses'
import { failureKey, isSeller, type SellerAccess } from './console/auth'
import { publicReadiness, type Readiness } from './ready-public'
import { noRoute } from './pages/error-page'
import type { PaymentLedger } from '../ledger'
import type { RequestLog } from './requests/request-log'

export type { Readiness } from './ready-public'

/** The success envelope of a free answer. */
export const free = (data: unknown, requestId: string, headers?: Record<string, string>) =>
  jsonResponse(
    {
      success: true,
      data,
      meta: { request_id: requestId, generated_at: new Date().toISOString(), pipeline_version: 'v1' },
      pricing: { amount_usd: '0', payment_status: 'free' },
    },
    200,
    requestId,
    headers,
  )

/** Routes that never ask for payment: liveness, readiness, and paid results fetched again by their artifact path. */
export interface MetricsSource {
  contentType: string
  text(): Promise<string>
}

export function freeRoutes(deps: {
  version: string
  ledger: PaymentLedger
  readiness: () => Promise<Readiness>
  log: RequestLog
  metrics?: MetricsSource
  /** Who reads /metrics and /ready's details (the console's access, its failure counts shared). */
  seller: SellerAccess
}) {
  const seller = (request: Request) => isSeller(deps.seller, request, failureKey(deps.log.client(request)))
  const answer = (request: Request, response: Response, route?: string) => {
    deps.log.finish(request, response.status, undefined, route)
    return response
  }
  return new Elysia({ name: 'free-routes' })
    .get('/health', ({ request }) => answer(request, free({ status: 'ok', version: deps.version }, deps.log.id(request)), '/health'), {
      detail: { tags: ['service'], summary: 'Liveness: the process answers' },
    })
    .get(
      '/ready',
      async ({ request }) => {
        const id = deps.log.id(request)
        // The verdict for anyone; the details (paths, URLs, the parts' errors) for the seller alone.
        const checked = await deps.readiness()
        const readiness = seller(request) ? redactDeep(checked) : publicReadiness(checked)
        if (readiness.ready) return answer(request, free(readiness, id), '/ready')
        return answer(
          request,
          jsonResponse(
            {
              success: false,
              error: {
                code: readiness.code ?? 'dataset_unavailable',
                message: readiness.message ?? 'Not ready: datasets or DuckDB unavailable.',
                details: readiness.checks,
              },
              meta: { request_id: id },
            },
            503,
            id,
          ),
          '/ready',
        )
      },
      {
        detail: {
          tags: ['service'],
          summary:
            'Readiness: DuckDB answers, the datasets are loaded and indexed (checks.indexes), the payment ledger takes writes and the facilitator answers',
        },
      },
    )
    .get(
      '/v1/artifacts/:id',
      async ({ params, request }) => {
        const stored = await deps.ledger.artifact(params.id, Math.floor(Date.now() / 1000)).catch((e: unknown) => {
          throw e instanceof LedgerUnavailable ? ledgerUnavailable(e) : e
        })
        if (!stored) throw notFound('artifact', params.id, 'id')
        return answer(
          request,
          jsonResponse(stored.body, 200, deps.log.id(request), {
            ...stored.headers,
            'x-artifact-expires-at': new Date(stored.expiresAt * 1000).toISOString(),
          }),
          '/v1/artifacts/:id',
        )
      },
      {
        // No pattern: any id that is not a stored artifact is simply not found (404), never a 400.
        params: t.Object({ id: t.String({ description: 'art_… id from meta.artifact_path' }) }),
        detail: { tags: ['service'], summary: 'A paid result again, free, for 24 h after payment (meta.artifact_path)' },
      },
    )
    .get(
      '/metrics',
      async ({ request }) => {
        const metrics = deps.metrics
        // Revenue is in there: without the token (or with none configured in production) the route does not exist.
        if (!metrics || !seller(request)) return answer(request, noRoute(request, deps.log.id(request)))
        return answer(
          request,
          new Response(redactSecrets(await metrics.text()), {
            headers: { 'content-type': metrics.contentType, 'x-request-id': deps.log.id(request) },
          }),
          '/metrics',
        )
      },
      {
        detail: {
          // Listed only where anyone may read it (development without a token): elsewhere it is an unknown path.
          hide: deps.seller !== 'open',
          tags: ['service'],
          summary: 'Prometheus metrics: requests, latency, payments, revenue, settlements, cache, DuckDB pool (METRICS_TOKEN protects it)',
        },
      },
    )
}
