import { ApiError, type HandlerMap, limitKeyOf, type Prepared, type ProviderSpend, redactSecrets, withinDeadline } from '../core'
import { type AnswerFormat, httpQuery, routeById, type RouteSpec } from '../catalog'
import type { GateAnswer, PaidRequest, PaymentGate, ProofInput } from '../payments'
import { checkedInput } from './validation'
import { notIndexed, type Indexing } from './indexing'
import { tableAnswer } from '../formats'
import { buildSuccess } from './success'
import { overLimit, type RateLimits } from './rate-limit'

/** What every paid call needs, whichever transport it came by: built once by the composition. */
export interface PaidCallDeps {
  gate: PaymentGate
  handlers: HandlerMap
  limits?: RateLimits
  /** The datasets' start-up build, which every answer waits for (see indexing.ts). */
  indexing?: Indexing
}

/** One paid request as a transport read it: nothing checked yet. */
export interface PaidCall {
  /** The catalog id of the route. */
  routeId: string
  /** The query string's parameters or the body's fields as read (numbers may be text), and the path's parameters. */
  input: unknown
  params?: Record<string, unknown>
  /** Where `input` came from, named in an error that no one parameter explains. */
  inputFrom?: 'query' | 'body'
  /** The payment payload as sent (see payments/gate/proof.ts's ProofInput): undefined for none. */
  payment: ProofInput
  /** HTTP's SIGN-IN-WITH-X header, as sent: a wallet asks for the answer it bought (payments/gate/sign-in.ts). */
  signIn?: string
  /** The `resource` of the requirements: the absolute URL without its query, or the MCP tool's URI. */
  resourceUrl: string
  requestId: string
  /** The caller's address, asked for only when a proof is present (looking it up has a cost); none in process. */
  clientIp: () => string | undefined
  /**
   * HTTP sells a table route's table as CSV or Arrow too: `format` is then a parameter of the call, and
   * `accepted` (from the Accept header) the format when it is absent. A proof buys one answer in one format.
   */
  tables?: { accepted: AnswerFormat }
}

/**
 * What a paid call comes to, for the transport to translate: refused, with the 402's requirements and the
 * reason (or the 400, 404, 429, 501 or 5xx that stands for it) as an `ApiError`; or paid, with the answer
 * and its receipt. Only an internal failure is thrown.
 */
export type PaidResult = { kind: 'refused'; error: ApiError } | { kind: 'paid'; answer: GateAnswer }

/** A transport's one entry to the paid part of the service. */
export type PaidCaller = (call: PaidCall) => PaidResult | Promise<PaidResult>

const refused = (error: ApiError): PaidResult => ({ kind: 'refused', error })
const asResult = (paid: ApiError | Promise<ApiError | GateAnswer>): PaidResult | Promise<PaidResult> =>
  paid instanceof ApiError
    ? refused(paid)
    : paid.then((answer) => (answer instanceof ApiError ? refused(answer) : { kind: 'paid', answer }))

/** A step of the call whose refusals (thrown `ApiError`s) become the result; anything else stays an internal failure. */
function guarded(step: () => PaidResult | Promise<PaidResult>): PaidResult | Promise<PaidResult> {
  try {
    return step()
  } catch (error) {
    return refused(refusal(error))
  }
}

/**
 * The paid call, the same for HTTP routes and MCP tools: the route, its input checked (free 400s), the
 * start-up indexing waited for, the request resolved (free 404s), then limits, payment and the answer
 * (`payFor`). Synchronous until the payment is verified, so the unpaid 402, the most frequent answer of a
 * paid API, comes back as a value without a promise or a throw.
 */
export function paidCaller(deps: PaidCallDeps): PaidCaller {
  return (call) =>
    guarded(() => {
      const { route, handler, input, format } = checkCall(deps, call)
      const pay = () =>
        guarded(() => asResult(payFor(deps.gate, deps.limits, { ...call, route, prepared: handler.prepare(input), format })))
      // Until the start-up build is done, every answer waits for it (indexing.ts); then this is one call.
      const building = deps.indexing?.()
      return building ? building.then(pay, (error: unknown) => refused(notIndexed(error))) : pay()
    })
}

/** The route of a call and its input as the handler reads it; a client mistake or a route not served throws its free error. */
function checkCall(deps: PaidCallDeps, call: PaidCall) {
  const route = routeById.get(call.routeId)
  if (!route) throw new ApiError('not_found', `No paid route ${call.routeId.slice(0, 100)}.`)
  const params = route.params ? (checkedInput(route.params, call.params ?? {}, 'path') as Record<string, string>) : {}
  const sellsTables = Boolean(call.tables && route.table)
  const checked = checkedInput(sellsTables ? httpQuery(route) : route.query, call.input, call.inputFrom ?? 'query')
  const handler = deps.handlers[route.id]
  if (!handler)
    throw new ApiError('not_implemented', `${route.path} is in the catalog but not served by this release yet; nothing was charged.`)
  // A table route's `format` picks how the answer is written, not what it is: the handler never sees it.
  if (!sellsTables) return { route, handler, input: { query: checked, params }, format: 'json' as AnswerFormat }
  const { format: asked, ...query } = checked
  return { route, handler, input: { query, params }, format: (asked as AnswerFormat | undefined) ?? call.tables!.accepted }
}

/** What `payFor` is given: the call as the transport made it, its route and the request resolved before payment. */
type ResolvedCall = Pick<PaidCall, 'payment' | 'signIn' | 'resourceUrl' | 'requestId' | 'clientIp'> & {
  route: RouteSpec
  prepared: Prepared
  format: AnswerFormat
}

/**
 * The paid part of a request, the same for HTTP routes and MCP tools: the per-IP limit before the
 * proof's signature is recovered (the first expensive step), verification, the per-payer limit, then
 * claim, run, settle and store. Synchronous until the payment is verified: a 402 or 429 comes back as
 * a value (the hot path: no promise, no throw); what needs the ledger or a facilitator, as a promise.
 */
function payFor(gate: PaymentGate, limits: RateLimits | undefined, call: ResolvedCall): ApiError | Promise<ApiError | GateAnswer> {
  // The client, keyed as rate limits key it, looked up once and only when asked: for the IP limit, and for
  // its share of the new payers' verification budget (a payer already served never asks).
  let looked = false
  let client: string | undefined
  const clientKey = () => {
    if (!looked) {
      looked = true
      const ip = call.clientIp()
      client = ip === undefined ? undefined : limitKeyOf(ip, limits?.ipv6Prefix ?? 64)
    }
    return client
  }
  if ((call.payment !== undefined || call.signIn !== undefined) && limits?.ip.enabled) {
    const limited = overLimit(limits, 'ip', clientKey()) as ApiError | null // the IP limit is always this process's
    if (limited) return limited
  }
  // Nothing to sell, and known already (intelligence/reports/known-misses.ts): the free 404, before any 402.
  const known = call.prepared.known?.()
  if (known) return known
  const format = call.format
  const fingerprint = format === 'json' ? `${call.route.id}|${call.prepared.key}` : `${call.route.id}|${call.prepared.key}|${format}`
  const req = { route: call.route, payment: call.payment, resourceUrl: call.resourceUrl, requestId: call.requestId, fingerprint, clientKey }
  if (call.signIn === undefined) return pay(gate, limits, call, req)
  // A sign-in first: the answer its wallet bought is never charged again. Refused, a proof sent beside it still pays.
  return gate
    .signIn(req, call.signIn)
    .then((answer) => (answer instanceof ApiError && call.payment !== undefined ? pay(gate, limits, call, req) : answer))
}

/** Verification, the per-payer limit, then claim, run, settle and store (the gate's steps). */
function pay(
  gate: PaymentGate,
  limits: RateLimits | undefined,
  call: ResolvedCall,
  req: PaidRequest,
): ApiError | Promise<ApiError | GateAnswer> {
  const format = call.format
  let auth
  try {
    auth = gate.authorize(req)
  } catch (error) {
    return refusal(error) // a proof that cannot pay: malformed, badly signed, for other terms
  }
  if (auth instanceof ApiError) return auth
  const fulfil = (): Promise<ApiError | GateAnswer> =>
    gate
      .fulfil(auth, async ({ artifactPath, deadlineMs }) => {
        // What the answer cost at live providers is recorded whether or not it is charged in the end.
        const spend: ProviderSpend[] = []
        try {
          const result = await withinDeadline(deadlineMs, () => call.prepared.run(spend))
          gate.answered(call.route.id, result.cacheStatus)
          const envelope = buildSuccess(call.route, call.requestId, result, artifactPath)
          // The answer as sold, stored and replayed: no configured secret in it, whatever a provider echoed.
          if (format === 'json') return redactSecrets(JSON.stringify(envelope))
          const table = await tableAnswer(call.route, format, envelope)
          return typeof table.body === 'string' ? { ...table, body: redactSecrets(table.body) } : table
        } finally {
          gate.spent(call.requestId, call.route.id, spend)
        }
      })
      .catch(refusal)
  const limited = overLimit(limits, 'payer', auth.payer)
  if (limited instanceof Promise) {
    // Shared with other instances: the limit is known after a round trip to the ledger.
    return limited.then((limit) => limit ?? fulfil())
  }
  if (limited) return limited
  return fulfil()
}

/** A refusal the steps threw (an ApiError) as the outcome; anything else stays an internal failure. */
function refusal(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  throw error
}
