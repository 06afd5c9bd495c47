/**
 * x402's `sign-in-with-x` extension (spec: x402:specs/extensions/sign-in-with-x.md; client:
 * @x402/extensions 2.27.0's `wrapFetchWithSIWx`): a wallet that bought a request's answer signs a
 * CAIP-122 (EIP-4361) message to get that stored answer again, free, while it is kept. HTTP only: the
 * challenge is bound to the service's public origin (PUBLIC_BASE_URL), which an MCP tool's URI is not.
 *
 * Every HTTP 402 carries a fresh challenge (nonce, issuedAt, a five-minute expiry). The rest of the
 * header is the cached 402's, encoded once: a challenge costs the base64 of about 150 bytes per 402.
 */
import type { PaymentRequired } from '@x402/core/types'
import { randomBytes } from 'node:crypto'
import { Type as T } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'

export const SIGN_IN_WITH_X = 'sign-in-with-x'
/** How long a challenge may be signed and used; the spec's default. */
const CHALLENGE_SECONDS = 300
/** A challenge signed by an instance whose clock runs ahead of this one's is still taken, this far ahead. */
const CLOCK_SKEW_SECONDS = 60
/** A sign-in header is a few hundred bytes (a smart wallet's signature up to 1 KB more): far larger is refused unread. */
const MAX_SIGN_IN_BYTES = 4096

const STATEMENT = 'Sign in with the wallet that paid for this request to get its stored answer again, free.'

/** The CAIP-122 fields the spec lists, as the client sends them back (schema of the declaration). */
const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    domain: { type: 'string' },
    address: { type: 'string' },
    statement: { type: 'string' },
    uri: { type: 'string', format: 'uri' },
    version: { type: 'string' },
    chainId: { type: 'string' },
    type: { type: 'string' },
    nonce: { type: 'string' },
    issuedAt: { type: 'string', format: 'date-time' },
    expirationTime: { type: 'string', format: 'date-time' },
    notBefore: { type: 'string', format: 'date-time' },
    requestId: { type: 'string' },
    resources: { type: 'array', items: { type: 'string', format: 'uri' } },
    signature: { type: 'string' },
  },
  required: ['domain', 'address', 'uri', 'version', 'chainId', 'type', 'nonce', 'issuedAt', 'signature'],
} as const

/** The cached 402's JSON split around the challenge's changing part, its head already base64 (3-byte aligned). */
interface Template {
  head: string
  /** The head's last bytes that did not fill a base64 group, then the JSON after the changing part. */
  carry: Buffer
  tail: string
}
const templates = new WeakMap<PaymentRequired, Template | null>()
const MARK = '\u0000challenge\u0000'

/** The three fields each challenge has of its own. */
export interface FreshChallenge {
  nonce: string
  issuedAt: string
  expirationTime: string
}

/**
 * The PaymentRequired with its sign-in challenge (the spec's declaration, the fields fresh), or undefined
 * when the resource is no HTTP(S) URL (an MCP tool). The fresh fields come last: what follows them in
 * the JSON is the same for every 402 of the resource.
 */
export function withSignInChallenge(required: PaymentRequired, fresh: FreshChallenge): PaymentRequired | undefined {
  const url = URL.parse(required.resource.url)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined
  const uri = `${url.origin}${url.pathname}`
  const supportedChains = required.accepts
    .filter((a) => a.network.startsWith('eip155:'))
    .map((a) => ({ chainId: a.network, type: 'eip191' }))
  const info = { domain: url.host, uri, version: '1', statement: STATEMENT, resources: [uri], ...fresh }
  return { ...required, extensions: { ...required.extensions, [SIGN_IN_WITH_X]: { supportedChains, schema: SCHEMA, info } } }
}

/** The 402's template, or null when it carries no challenge. */
function templateOf(required: PaymentRequired): Template | null {
  let template = templates.get(required)
  if (template !== undefined) return template
  template = null
  const marked = withSignInChallenge(required, { nonce: MARK, issuedAt: MARK, expirationTime: MARK })
  if (marked) {
    const mark = JSON.stringify(MARK)
    const [before, after] = JSON.stringify(marked).split(`${mark},"issuedAt":${mark},"expirationTime":${mark}`) as [string, string]
    const bytes = Buffer.from(before, 'utf8')
    const aligned = bytes.length - (bytes.length % 3)
    template = { head: bytes.subarray(0, aligned).toString('base64'), carry: bytes.subarray(aligned), tail: after }
  }
  templates.set(required, template)
  return template
}

/** Whether the 402 of `required` carries a sign-in challenge (its resource is an HTTP(S) URL). */
export const carriesChallenge = (required: PaymentRequired): boolean => templateOf(required) !== null

/**
 * The PAYMENT-REQUIRED header of an HTTP 402 with a fresh sign-in challenge (undefined: no challenge for
 * this resource): byte for byte `encodePaymentRequiredHeader(withSignInChallenge(required, fresh))`.
 */
export function challengedHeader(required: PaymentRequired, nowMs: number): string | undefined {
  const template = templateOf(required)
  if (!template) return undefined
  const fresh = `"${freshNonce()}",${timesOf(nowMs)}${template.tail}`
  return template.head + Buffer.concat([template.carry, Buffer.from(fresh, 'utf8')]).toString('base64')
}

/** Random bytes drawn 4 KB at a time: a nonce per 402 costs a slice, not a call into the system's generator. */
const pool = { bytes: Buffer.alloc(0), at: 0 }
function freshNonce(): string {
  if (pool.at + 16 > pool.bytes.length) {
    pool.bytes = randomBytes(4096)
    pool.at = 0
  }
  pool.at += 16
  return pool.bytes.toString('hex', pool.at - 16, pool.at)
}

/** A challenge's times, to the second (as the spec's example has them), written once per second. */
const times = { second: -1, json: '' }
function timesOf(nowMs: number): string {
  const second = Math.floor(nowMs / 1000)
  if (second !== times.second) {
    const issuedAt = new Date(second * 1000).toISOString()
    const expirationTime = new Date((second + CHALLENGE_SECONDS) * 1000).toISOString()
    times.second = second
    times.json = `"issuedAt":"${issuedAt}","expirationTime":"${expirationTime}"`
  }
  return times.json
}

const Iso = T.String({ maxLength: 40 })
const SignInPayload = T.Object({
  domain: T.String({ maxLength: 256 }),
  address: T.String({ pattern: '^0x[0-9a-fA-F]{40}$' }),
  statement: T.Optional(T.String({ maxLength: 512 })),
  uri: T.String({ maxLength: 1024 }),
  version: T.Literal('1'),
  chainId: T.String({ pattern: '^eip155:[0-9]{1,20}$' }),
  type: T.Literal('eip191'),
  nonce: T.String({ pattern: '^[a-zA-Z0-9]{8,64}$' }),
  issuedAt: Iso,
  expirationTime: T.Optional(Iso),
  notBefore: T.Optional(Iso),
  requestId: T.Optional(T.String({ maxLength: 200 })),
  resources: T.Optional(T.Array(T.String({ maxLength: 1024 }), { maxItems: 8 })),
  signatureScheme: T.Optional(T.String({ maxLength: 20 })),
  signature: T.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 2 + 2 * 2048 }),
})
const checkPayload = TypeCompiler.Compile(SignInPayload)

/** Why a sign-in is refused (`details.reason` of `sign_in_refused`), with what the buyer is told. */
export const SIGN_IN_REFUSALS = {
  malformed: 'The SIGN-IN-WITH-X header is not a base64 JSON sign-in of an EVM wallet (EIP-4361, version 1).',
  wrong_origin: "The sign-in names another service: its domain and URI must be this service's (PUBLIC_BASE_URL).",
  wrong_chain: 'The sign-in names a chain this service does not take payments on.',
  expired: 'The sign-in challenge is expired or not yet valid: take the fresh one from a new 402.',
  bad_signature: 'The sign-in signature does not verify for its address.',
  nonce_used: 'The sign-in challenge was used already: take the fresh one from a new 402.',
  not_bought: 'This wallet has no stored answer for this request (this route with these parameters); pay for it instead.',
} as const
export type SignInRefusal = keyof typeof SIGN_IN_REFUSALS

/** A timestamp as viem writes it back into the message (toISOString): anything else could not be verified. */
const timeOf = (text: string | undefined): Date | null | undefined => {
  if (text === undefined) return undefined
  const time = new Date(text)
  return Number.isNaN(time.getTime()) || time.toISOString() !== text ? null : time
}

/** A signature check on a chain: an EOA's by recovery; a smart wallet's (EIP-1271, EIP-6492) over the chain's RPC when one is configured. */
export type SignInVerifier = (
  chainId: string,
  args: { address: `0x${string}`; message: string; signature: `0x${string}` },
) => Promise<boolean>

/** A sign-in whose fields and window hold; `recovered`: its signature is its address's own (an EOA's). */
export interface SignInClaim {
  payer: string
  chainId: string
  nonce: string
  expiresAt: number
  recovered: boolean
  /** What a smart wallet's check needs (SignInVerifier), asked only when recovery fails. */
  signed: Parameters<SignInVerifier>[1]
}

/**
 * Reads and checks a SIGN-IN-WITH-X header for `resourceUrl`: its fields, its window, and its signature by
 * recovery (viem; the EIP-4361 message rebuilt from the fields with viem's `createSiweMessage`). A smart
 * wallet's signature, the nonce's single use and the purchase are the gate's to check (gate.ts).
 */
export async function readSignIn(
  header: string,
  expected: { resourceUrl: string; chains: readonly string[] },
  nowMs: number,
): Promise<({ ok: true } & SignInClaim) | { ok: false; reason: SignInRefusal }> {
  let payload: unknown
  try {
    payload = header.length <= MAX_SIGN_IN_BYTES ? JSON.parse(Buffer.from(header.trim(), 'base64').toString('utf8')) : undefined
  } catch {}
  if (!checkPayload.Check(payload)) return { ok: false, reason: 'malformed' }
  const origin = new URL(expected.resourceUrl)
  if (payload.domain !== origin.host || URL.parse(payload.uri)?.origin !== origin.origin) return { ok: false, reason: 'wrong_origin' }
  if (!expected.chains.includes(payload.chainId)) return { ok: false, reason: 'wrong_chain' }
  const [issuedAt, expiration, notBefore] = [timeOf(payload.issuedAt), timeOf(payload.expirationTime), timeOf(payload.notBefore)]
  if (issuedAt === null || expiration === null || notBefore === null) return { ok: false, reason: 'malformed' }
  const expiresMs = Math.min(expiration?.getTime() ?? Infinity, issuedAt!.getTime() + CHALLENGE_SECONDS * 1000)
  const early = issuedAt!.getTime() > nowMs + CLOCK_SKEW_SECONDS * 1000 || (notBefore && notBefore.getTime() > nowMs)
  if (early || expiresMs <= nowMs) return { ok: false, reason: 'expired' }
  const { createSiweMessage } = await import('viem/siwe') // loaded by the first sign-in, not at start
  const { verifyMessage } = await import('viem')
  let message: string
  try {
    message = createSiweMessage({
      ...{ domain: payload.domain, address: payload.address as `0x${string}`, uri: payload.uri, version: '1' as const },
      ...{ chainId: Number(payload.chainId.slice('eip155:'.length)), nonce: payload.nonce, issuedAt: issuedAt! },
      ...(payload.statement !== undefined ? { statement: payload.statement } : {}),
      ...(expiration ? { expirationTime: expiration } : {}),
      ...(notBefore ? { notBefore } : {}),
      ...(payload.requestId !== undefined ? { requestId: payload.requestId } : {}),
      ...(payload.resources ? { resources: payload.resources } : {}),
    })
  } catch {
    return { ok: false, reason: 'malformed' } // a field viem refuses (a domain or URI that is not RFC 3986)
  }
  const signed = { address: payload.address as `0x${string}`, message, signature: payload.signature as `0x${string}` }
  const recovered = await verifyMessage(signed).catch(() => false)
  const claim = {
    payer: payload.address.toLowerCase(),
    chainId: payload.chainId,
    nonce: payload.nonce,
    expiresAt: Math.ceil(expiresMs / 1000),
  }
  return { ok: true, ...claim, recovered, signed }
}
