import { type AcceptedRequirement, type NetworkInfo, NETWORKS } from '../../payments'
import { usdToAtomic } from '../../core'
import type { ExampleRequest } from './smoke-requests'

/**
 * What the smoke command expects of the server's answers, checked as an outside client would: the 402
 * is decoded from the wire (plain base64 JSON, not the library the server encodes with) and compared
 * with the catalog.
 */

/** A 402 whose v1 and v2 requirements agree with each other and with the catalog: safe to sign. */
export interface Offer {
  network: NetworkInfo
  /** The v2 requirement, echoed in the proof as `accepted`. */
  accepted: AcceptedRequirement & { maxTimeoutSeconds: number }
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; problems: string[] }

type Json = Record<string, any>

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()

/** `402 payment_invalid: reason`, `200`, ...: how a problem names an answer. */
export function describeAnswer(status: number, body: unknown): string {
  const error = isObject(body) && isObject(body.error) ? body.error : null
  if (!error) return String(status)
  const reason = isObject(error.details) && typeof error.details.reason === 'string' ? ` (${error.details.reason})` : ''
  return `${status} ${error.code}${reason}`
}

/** Checks shared by v1 `accepts` entries and v2 ones; `amountField` is where each version puts the price. */
function checkEntry(
  label: string,
  entry: Json,
  amountField: 'maxAmountRequired' | 'amount',
  req: ExampleRequest,
  network: NetworkInfo | undefined,
): string[] {
  const problems: string[] = []
  const price = usdToAtomic(req.route.priceUsd).toString()
  if (entry[amountField] !== price)
    problems.push(`${label} ${amountField} is ${JSON.stringify(entry[amountField])}, expected ${price} (USD ${req.route.priceUsd})`)
  if (typeof entry.payTo !== 'string' || !ADDRESS.test(entry.payTo))
    problems.push(`${label} payTo ${JSON.stringify(entry.payTo)} is not an address`)
  if (network && !same(entry.asset, network.asset))
    problems.push(`${label} asset ${JSON.stringify(entry.asset)} is not USDC on ${network.name} (${network.asset})`)
  if (network && (!isObject(entry.extra) || entry.extra.name !== network.eip712.name || entry.extra.version !== network.eip712.version))
    problems.push(`${label} extra ${JSON.stringify(entry.extra)} is not the USDC EIP-712 domain ${JSON.stringify(network.eip712)}`)
  if (!Number.isInteger(entry.maxTimeoutSeconds) || entry.maxTimeoutSeconds <= 0)
    problems.push(`${label} maxTimeoutSeconds ${JSON.stringify(entry.maxTimeoutSeconds)} is not a positive integer`)
  return problems
}

/** An absolute http(s) URL of this route (behind a proxy the origin and a path prefix may differ). */
function checkResource(label: string, url: unknown, req: ExampleRequest): string[] {
  let parsed: URL | null = null
  try {
    if (typeof url === 'string') parsed = new URL(url)
  } catch {
    // reported below
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || !parsed.pathname.endsWith(req.path))
    return [`${label} resource ${JSON.stringify(url)} is not an absolute URL of ${req.path}`]
  return []
}

/**
 * The x402 v1 requirements in the 402 body: its entry for `network` (the one the v2 header offers
 * first), which must say what v2 says; none is needed for a network x402 v1 has no name for.
 */
function checkV1(body: unknown, req: ExampleRequest, network: NetworkInfo | undefined, v2: Json | undefined): string[] {
  if (!isObject(body) || body.success !== false || !isObject(body.error) || body.error.code !== 'payment_required')
    return ['402 body is not an error envelope with error.code payment_required']
  if (body.x402Version !== 1 || !Array.isArray(body.accepts)) return ['402 body has no x402 v1 accepts list']
  if (!network || network.v1 === null) return []
  const entry = body.accepts.find((a: unknown) => isObject(a) && a.scheme === 'exact' && a.network === network.v1)
  if (!entry) return [`v1 accepts offers no "exact" scheme on ${network.v1}, which the v2 header offers`]
  const problems = [...checkEntry('v1', entry, 'maxAmountRequired', req, network), ...checkResource('v1', entry.resource, req)]
  if (v2 && !same(entry.payTo, String(v2.payTo))) problems.push(`v1 payTo ${entry.payTo} differs from v2 payTo ${v2.payTo}`)
  return problems
}

function decodeHeader(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8'))
  } catch {
    return undefined
  }
}

/** The x402 v2 requirements in the PAYMENT-REQUIRED header: its first entry is the one paid. */
function checkV2(
  header: string | null,
  req: ExampleRequest,
): { problems: string[]; entry?: Json; network?: NetworkInfo; resource?: unknown } {
  if (!header) return { problems: ['no PAYMENT-REQUIRED header (x402 v2)'] }
  const decoded = decodeHeader(header)
  if (!isObject(decoded) || decoded.x402Version !== 2 || !Array.isArray(decoded.accepts))
    return { problems: ['PAYMENT-REQUIRED header is not base64 JSON of an x402 v2 PaymentRequired'] }
  const entry = decoded.accepts.find((a: unknown) => isObject(a) && a.scheme === 'exact')
  if (!entry) return { problems: ['v2 accepts offers no "exact" scheme'] }
  const network = Object.values(NETWORKS).find((n) => n.caip2 === entry.network)
  const problems = network ? [] : [`v2 network ${JSON.stringify(entry.network)} is not one of ${Object.keys(NETWORKS).join(', ')}`]
  problems.push(...checkEntry('v2', entry, 'amount', req, network), ...checkResource('v2', decoded.resource?.url, req))
  return { problems, entry, ...(network ? { network } : {}), resource: decoded.resource?.url }
}

/** A 402 `payment_required` whose requirements, v1 and v2, are those of this route. */
export function checkPaymentRequired(req: ExampleRequest, headers: Headers, body: unknown): Verdict<Offer> {
  const v2 = checkV2(headers.get('payment-required'), req)
  const problems = [...v2.problems, ...checkV1(body, req, v2.network, v2.entry)]
  if (problems.length > 0 || !v2.network || !v2.entry) return { ok: false, problems }
  const entry = v2.entry
  return {
    ok: true,
    value: {
      network: v2.network,
      accepted: {
        scheme: entry.scheme,
        network: entry.network,
        amount: entry.amount,
        asset: entry.asset,
        payTo: entry.payTo,
        maxTimeoutSeconds: entry.maxTimeoutSeconds,
        extra: entry.extra,
      },
    },
  }
}

/** A paid answer: 200 with the success envelope, paid, at the catalog price. */
export function checkPaidAnswer(req: ExampleRequest, status: number, body: unknown): string[] {
  if (status !== 200) return [`paid call answered ${describeAnswer(status, body)}, expected 200`]
  if (!isObject(body) || body.success !== true || !isObject(body.data) || !isObject(body.meta) || typeof body.meta.request_id !== 'string')
    return ['paid answer is not a success envelope (success, data, meta.request_id)']
  const problems: string[] = []
  const pricing = isObject(body.pricing) ? body.pricing : {}
  if (pricing.payment_status !== 'paid')
    problems.push(`pricing.payment_status is ${JSON.stringify(pricing.payment_status)}, expected "paid"`)
  if (pricing.amount_usd !== req.route.priceUsd)
    problems.push(`pricing.amount_usd is ${JSON.stringify(pricing.amount_usd)}, expected "${req.route.priceUsd}"`)
  return problems
}
