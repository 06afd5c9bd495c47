/**
 * x402's `payment-identifier` extension: the buyer's idempotency key (spec:
 * x402:specs/extensions/payment_identifier.md; client helpers: @x402/extensions 2.27.0). Every v2
 * PaymentRequired offers it, optional. A payload that carries an id binds it, per payer, to that exact
 * payload for as long as its payment is not failed: the same payload sent again gets its stored answer
 * (as any retry), another payload under the same id is refused with 409 and never charged.
 */
import { createHash } from 'node:crypto'
import { ApiError } from '../../core'

export const PAYMENT_IDENTIFIER = 'payment-identifier'

const MIN_LENGTH = 16
const MAX_LENGTH = 128
const PATTERN = /^[a-zA-Z0-9_-]+$/

/** What the 402 declares: ids are welcome, not required (a buyer without one pays as before). A new object each time: x402's client helper writes its id into the one it reads. */
export const paymentIdentifierDeclaration = () => ({
  info: { required: false },
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { required: { type: 'boolean' }, id: { type: 'string', minLength: MIN_LENGTH, maxLength: MAX_LENGTH } },
    required: ['required'],
  },
})

/** The id a payment payload carries (undefined: none); a malformed one is refused as a malformed proof. */
export function paymentIdOf(payload: unknown): string | undefined {
  const extensions = (payload as { extensions?: Record<string, unknown> }).extensions
  const info = (extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined)?.info
  const id = info && typeof info === 'object' ? info.id : undefined
  if (id === undefined) return undefined
  if (typeof id === 'string' && id.length >= MIN_LENGTH && id.length <= MAX_LENGTH && PATTERN.test(id)) return id
  throw new ApiError(
    'payment_invalid',
    `The payment identifier must be ${MIN_LENGTH} to ${MAX_LENGTH} letters, digits, "-" or "_" (x402 payment-identifier).`,
    { reason: 'payment_id_invalid' },
  )
}

/** JSON with every object's keys sorted: a payload re-sent as a header or as MCP's `_meta` object reads the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
    entries.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** The digest an id is bound to: the whole payload (terms, authorization, signature, echoed extensions), bounded by MAX_PROOF_BYTES. */
export const payloadDigest = (payload: unknown): string => createHash('sha256').update(canonicalJson(payload)).digest('base64url')

/** The 409 of a second payload under an id the payer bound to another: nothing claimed, nothing charged. */
export const paymentIdConflict = (paymentId: string): ApiError =>
  new ApiError(
    'payment_id_conflict',
    'This payer already used this payment identifier with a different payment payload; nothing was charged. Send that same payload again to get its answer, or use a new identifier for a new payment.',
    { payment_id: paymentId },
  )
