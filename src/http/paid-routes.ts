import { Elysia, t, type TSchema } from 'elysia'
import type { TObject } from '@sinclair/typebox'
import { CATALOG, type EvidenceMode, httpQuery, MEDIA_TYPES, type RouteSpec, successEnvelope, typicalWait } from '../catalog'
import { type GateAnswer, paymentWindowSeconds, PROOF_HEADERS, proofFromHeader, readProofHeader, SIGN_IN_WITH_X } from '../payments'
import { checkQuery } from './requests/body'
import { jsonResponse, paidAnswerHeaders } from './responses'
import { errorFor } from './pages/error-page'
import { ApiError } from '../core'
import type { RequestLog } from './requests/request-log'
import type { PaidCaller, PaidResult } from '../paid-call'
import { prefersHtml, tableFormat } from './accept'
import { TABLE_ANSWER_HEADERS } from '../formats'
import { paymentPages, type PaymentPageContext } from './pages/payment-page'
import { MAX_IDLE_SECONDS, type SlowAnswers } from './requests/slow-answers'
import type { UnpaidAnswers } from './unpaid-answers'

export interface PaidRouteDeps extends PaymentPageContext {
  paid: PaidCaller
  /** The routes this release serves (OpenAPI marks the others). */
  implemented: ReadonlySet<string>
  log: RequestLog
  /** Where the unpaid 402s are remembered, to be answered ahead of the framework next time. */
  unpaid?: UnpaidAnswers
}

/** Documents the proof headers in OpenAPI only: the gate reads and checks them, so Elysia need not (noValidate). */
const ProofHeaders = t.Object(
  {
    ...Object.fromEntries(
      PROOF_HEADERS.map((name, index) => [
        name,
        t.Optional(
          t.String({
            description:
              index === 0
                ? 'x402 payment proof (base64 JSON). X-PAYMENT and PAYMENT-SIGNATURE are accepted too.'
                : `Alias of x402-payment (x402 v${index}).`,
          }),
        ),
      ]),
    ),
    [SIGN_IN_WITH_X]: t.Optional(
      t.String({
        description:
          "x402 sign-in-with-x (base64 JSON, EIP-4361 signed over the 402's challenge): the wallet that bought this request's answer gets it again, free, while it is kept.",
      }),
    ),
  },
  { noValidate: true },
)

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

/** OpenAPI description of one catalog route: price, payment, envelope around its data schema. */
function detail(route: RouteSpec, implemented: boolean, evidence: EvidenceMode) {
  const envelope = successEnvelope(route)
  return {
    tags: [route.family],
    // Price first: Scalar's sidebar puts a line-break opportunity before every "." of a summary, so a
    // price at the end of a long summary could wrap as "USD 0" / ".08"; at the start it always reads whole.
    summary: `USD ${route.priceUsd} · ${route.summary}${implemented ? '' : ' (not implemented yet)'}`,
    description: `${route.description}\n\nPrice: USD ${route.priceUsd} per request, paid with x402 (send the proof in \`x402-payment\`). Typical wait: ${typicalWait(route, evidence)}.`,
    operationId: route.id.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase()),
    'x-price-usd': route.priceUsd,
    responses: {
      200: route.table
        ? {
            description: `Paid answer: the JSON envelope, or its \`${route.table.field}\` table as CSV or Arrow (\`format\` or Accept)`,
            content: answerContent(route, envelope),
            headers: TABLE_HEADERS,
          }
        : { description: 'Paid answer', content: answerContent(route, envelope) },
      400: errorRef('`invalid_parameter` (free)'),
      202: errorRef('`settlement_pending`: the answer is ready, the payment still settling; retry with the same proof'),
      402: errorRef(
        '`payment_required` / `payment_invalid` / `payment_replayed` / `settlement_failed` / `sign_in_refused`, with x402 requirements (`accepts`, `PAYMENT-REQUIRED` header)',
      ),
      404: errorRef('`not_found` (free)'),
      409: errorRef('`payment_id_conflict`: the x402 payment-identifier names another payload of this payer (nothing charged)'),
      429: errorRef('`rate_limited` (free, before payment; `Retry-After`)'),
      502: errorRef('`facilitator_unavailable` (nothing charged)'),
      503: errorRef('`ledger_unavailable` or `shutting_down` (nothing charged; retry with the same proof)'),
      ...(implemented ? {} : { 501: errorRef('`not_implemented` (free)') }),
      ...(route.kind === 'evidence'
        ? {
            502: errorRef('`provider_unavailable` or `facilitator_unavailable` (not charged)'),
            504: errorRef('`provider_timeout` (not charged)'),
          }
        : {}),
    },
  }
}

/**
 * Media types of a paid answer. A table route also answers its table as RFC 4180 CSV (a header row;
 * null is an empty field, an empty text `""`, a list `a;b`) and as an Arrow IPC stream; what the envelope
 * says around the table travels in `x-…` headers (see docs/routes.md).
 */
function answerContent(route: RouteSpec, envelope: TSchema) {
  const json = { [MEDIA_TYPES.json]: { schema: envelope as never } }
  if (!route.table) return json
  return {
    ...json,
    [MEDIA_TYPES.csv]: {
      schema: { type: 'string' as const, description: `The \`${route.table.field}\` table, RFC 4180 with a header row` },
    },
    [MEDIA_TYPES.arrow]: {
      schema: {
        type: 'string' as const,
        format: 'binary',
        description: `The \`${route.table.field}\` table as an Arrow IPC stream (int64, float64, date32 months, utf8)`,
      },
    },
  }
}

/** x402's sign-in-with-x header of a request, if it carries one (HEAD never signs in, as it never pays). */
function signInOf(request: Request): { signIn?: string } {
  const header = request.method === 'HEAD' ? null : request.headers.get(SIGN_IN_WITH_X)
  return header === null ? {} : { signIn: header }
}

/** The headers of a CSV or Arrow answer, in OpenAPI. */
const TABLE_HEADERS = Object.fromEntries(
  Object.entries(TABLE_ANSWER_HEADERS).map(([name, description]) => [name, { description, schema: { type: 'string' as const } }]),
)

/** What a route's answer reads of Elysia's context, besides the input (the query of a GET, the body of a POST). */
type RouteContext = { request: Request; server: SlowAnswers | null; path: string; params: Record<string, string> }

type RouteAnswer = (context: RouteContext, input: unknown) => Response | Promise<Response>

/** One route's HTTP translation: headers, query or body in; status, headers and body out. The paid call does the rest. */
function routeAnswer(deps: PaidRouteDeps, route: RouteSpec, paymentPage: ReturnType<typeof paymentPages>): RouteAnswer {
  // Without path parameters the resource URL is the same for every request: built once, not per request.
  const fixedResource = route.params ? undefined : deps.publicBaseUrl + route.path
  const window = Math.min(MAX_IDLE_SECONDS, paymentWindowSeconds(route))
  const answerError = (request: Request, requestId: string, error: unknown): Response => {
    if (!(error instanceof ApiError)) throw error // Elysia's onError answers internal_error and logs it
    deps.log.finish(request, error.status)
    return errorFor(request, error, requestId)
  }
  /** A refusal: the unpaid 402 is remembered for the fast path, and a browser gets it as a page. */
  const refused = (request: Request, requestId: string, error: ApiError, resourceUrl: string): Response => {
    if (error.code === 'payment_required') {
      // For agents this costs one header lookup and a substring test.
      if (prefersHtml(request.headers.get('accept'))) {
        deps.log.finish(request, error.status)
        const queryAt = request.url.indexOf('?')
        return paymentPage(route, error, requestId, queryAt < 0 ? resourceUrl : resourceUrl + request.url.slice(queryAt))
      }
      deps.unpaid?.remember(request, error)
    }
    return answerError(request, requestId, error)
  }
  const answered = (request: Request, requestId: string, answer: GateAnswer): Response => {
    deps.log.finish(request, 200, answer.payer)
    const headers = paidAnswerHeaders(answer)
    return jsonResponse(answer.body, 200, requestId, route.table ? { ...headers, vary: 'accept' } : headers)
  }
  // Synchronous until payment is verified: the free answers (400/404/501) and the 402 — the most
  // frequent answer of a paid API — are returned directly, without promises or Elysia's error path.
  return ({ request, server, path, params }, input) => {
    const { id: requestId } = deps.log.begin(request, path, route.path) // before any wait: the logged latency includes it
    try {
      checkQuery(request.url)
    } catch (error) {
      return answerError(request, requestId, error)
    }
    const resourceUrl = fixedResource ?? deps.publicBaseUrl + path
    const translate = (result: PaidResult) =>
      result.kind === 'paid' ? answered(request, requestId, result.answer) : refused(request, requestId, result.error, resourceUrl)
    const result = deps.paid({
      routeId: route.id,
      input,
      params,
      inputFrom: request.method === 'POST' ? 'body' : 'query',
      // HEAD gets no body, so it never pays: it answers as the unpaid GET would (402 and its headers).
      payment: request.method === 'HEAD' ? undefined : proofFromHeader(readProofHeader(request.headers)),
      ...signInOf(request),
      resourceUrl,
      requestId,
      // None in process (`app.handle`: no socket), and then no IP limit applies.
      clientIp: () => deps.log.client(request),
      ...(route.table ? { tables: { accepted: tableFormat(request.headers.get('accept')) } } : {}),
    })
    if (!(result instanceof Promise)) return translate(result)
    // The connection's idle timeout (30 s) would close it under an answer that takes longer (live
    // providers: 30-45 s): this request may stay silent for its whole payment window.
    server?.timeout(request, window)
    return result.then(translate, (error: unknown) => answerError(request, requestId, error))
  }
}

/** The route's input schema in OpenAPI only: the paid call checks the input itself (paid-call/validation.ts), for every transport. */
const documented = (schema: TObject): TObject => ({ ...schema, noValidate: true }) as TObject

/** Mounts every catalog route: validate -> resolve (free) -> pay -> answer -> store artifact. */
export function paidRoutes(deps: PaidRouteDeps) {
  // normalize: false makes `additionalProperties: false` reject unknown parameters instead of dropping them.
  const app = new Elysia({ name: 'paid-routes', normalize: false })
  const paymentPage = paymentPages(deps)
  for (const route of CATALOG) {
    const handle = routeAnswer(deps, route, paymentPage)
    const doc = detail(route, deps.implemented.has(route.id), deps.evidence)
    const input = documented(httpQuery(route))
    const schemas = { ...(route.params ? { params: documented(route.params) } : {}), headers: ProofHeaders, detail: doc }
    for (const method of route.methods) {
      if (method === 'GET') {
        deps.unpaid?.addRoute(route.path, Boolean(route.params))
        app.get(route.path, (context) => handle(context, context.query), { ...schemas, query: input })
      } else {
        const post = { ...schemas, body: input, detail: { ...doc, operationId: `${doc.operationId}Post` } }
        app.post(route.path, (context) => handle(context, context.body), post)
      }
    }
  }
  return app
}
