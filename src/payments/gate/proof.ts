import { decodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { Type as T, type Static } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ApiError } from '../../core'
import type { Authorization } from '../chain/eip3009'
import { paymentIdOf } from './payment-id'
import { BATCH_SETTLEMENT, type BatchPayment, batchPaymentOf, checkBatchPayload } from '../batch/batch-proof'

/** Header names a proof may arrive in: our spec's, x402 v1's and x402 v2's. */
export const PROOF_HEADERS = ['x402-payment', 'x-payment', 'payment-signature'] as const

/**
 * A proof is ~600 bytes of base64, ~2.5 KB once an x402 v2 client echoes the 402's bazaar extension
 * into it, more with a smart wallet's signature (up to 1 KB): anything far larger is refused before
 * decoding. (nginx refuses a header line over 8 KB before it arrives.)
 */
export const MAX_PROOF_BYTES = 8192

const Hex = (bytes: number) => T.String({ pattern: `^0x[0-9a-fA-F]{${bytes * 2}}$` })
const Uint = T.String({ pattern: '^\\d{1,78}$' })

const ExactEvmPayload = T.Object({
  signature: T.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 2 + 2 * 1024 }),
  authorization: T.Object({ from: Hex(20), to: Hex(20), value: Uint, validAfter: Uint, validBefore: Uint, nonce: Hex(32) }),
})

const V1 = T.Object({ x402Version: T.Literal(1), scheme: T.String(), network: T.String(), payload: ExactEvmPayload })
const V2 = T.Object({
  x402Version: T.Literal(2),
  accepted: T.Object({
    scheme: T.String(),
    network: T.String(),
    amount: Uint,
    asset: T.String(),
    payTo: T.String(),
  }),
  payload: ExactEvmPayload,
})
/** x402 v2 with the `batch-settlement` scheme: its payload is checked by batch-proof.ts. */
const V2Batch = T.Object({
  x402Version: T.Literal(2),
  accepted: T.Object({ ...V2.properties.accepted.properties, scheme: T.Literal(BATCH_SETTLEMENT) }),
  payload: T.Object({ type: T.String() }),
})
const checkV1 = TypeCompiler.Compile(V1)
const checkV2 = TypeCompiler.Compile(V2)
const checkV2Batch = TypeCompiler.Compile(V2Batch)

interface ProofCommon {
  x402Version: 1 | 2
  scheme: string
  /** As the client wrote it: a v1 name (`base-sepolia`) or a CAIP-2 id (`eip155:84532`). */
  network: string
  /** The ECDSA (65 bytes) or smart-wallet signature: of the authorization, or of a batch voucher. */
  signature: `0x${string}`
  /** v2 only: the requirements the client says it accepted. */
  accepted?: Static<typeof V2>['accepted']
  /** The payload as the client sent it: what a facilitator verifies and settles (the same object throughout a request). */
  raw: PaymentPayload
  /** v2 only: x402's payment-identifier, when the payload carries one (payment-id.ts). */
  paymentId?: string
}

/** A decoded `exact` EVM proof, whichever x402 generation sent it. */
export interface ExactProof extends ProofCommon {
  authorization: Authorization
  batch?: undefined
}

/** A decoded x402 v2 `batch-settlement` proof: a deposit, a voucher or a refund request (batch-proof.ts). */
export interface BatchProof extends ProofCommon {
  x402Version: 2
  batch: BatchPayment
  authorization?: undefined
}

export type Proof = ExactProof | BatchProof

/** Who pays, as the proof writes it: the authorization's signer, or the channel's payer. */
export const payerOf = (proof: Proof): `0x${string}` => (proof.batch ? proof.batch.config.payer : proof.authorization.from) as `0x${string}`

export function readProofHeader(headers: Headers): string | null {
  for (const name of PROOF_HEADERS) {
    const value = headers.get(name)
    if (value) return value
  }
  return null
}

const malformed = (reason: string) =>
  new ApiError('payment_invalid', `The payment proof is malformed: ${reason}.`, { reason: 'malformed_proof' })

/** A payment the transport could not read as JSON (why, in the refusal's words): refused as malformed, with the 402's requirements. */
export class UnreadableProof {
  constructor(readonly reason: string) {}
}

/**
 * A payment as a transport hands it to the paid call: the x402 PaymentPayload object as sent (not yet
 * checked), an `UnreadableProof`, or `undefined` for none (JSON has no undefined: a payload of `null` is
 * malformed, not missing). The size bound is the header's, checked before any decoding.
 */
export type ProofInput = unknown

const tooLong = () => new UnreadableProof(`header longer than ${MAX_PROOF_BYTES} bytes`)

/** A proof header (base64 JSON, as x402's HTTP transport sends it) as the payload object it carries. */
export function proofFromHeader(header: string | null): ProofInput {
  if (header === null) return undefined
  if (header.length > MAX_PROOF_BYTES) return tooLong()
  try {
    return decodePaymentSignatureHeader(header.trim())
  } catch {
    return new UnreadableProof('not base64-encoded JSON')
  }
}

/** A payload object sent without base64 (MCP's `_meta`), bounded as the same payload in a header would be. */
export function proofFromObject(value: unknown): ProofInput {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '')
  return 4 * Math.ceil(bytes / 3) > MAX_PROOF_BYTES ? tooLong() : value
}

const MAX_UINT256 = (1n << 256n) - 1n
const inUint256 = (a: { value: string; validAfter: string; validBefore: string }) =>
  BigInt(a.value) <= MAX_UINT256 && BigInt(a.validAfter) <= MAX_UINT256 && BigInt(a.validBefore) <= MAX_UINT256

/** A base64 JSON header as a Proof; anything else is a 402 payment_invalid, never a 500. */
export const decodeProof = (header: string): Proof => readProof(proofFromHeader(header))

/** Checks a payment payload (see ProofInput) as an `exact` EVM proof of x402 v1 or v2, or a v2 batch-settlement one; anything else throws payment_invalid. */
export function readProof(decoded: ProofInput): Proof {
  if (decoded instanceof UnreadableProof) throw malformed(decoded.reason)
  if ((checkV1.Check(decoded) || checkV2.Check(decoded)) && !inUint256(decoded.payload.authorization)) {
    throw malformed('an authorization number exceeds uint256')
  }
  if (checkV1.Check(decoded)) {
    const { scheme, network, payload } = decoded
    return {
      x402Version: 1,
      scheme,
      network,
      authorization: payload.authorization as Authorization,
      signature: payload.signature as `0x${string}`,
      raw: decoded as unknown as PaymentPayload,
    }
  }
  if (checkV2.Check(decoded)) {
    const { accepted, payload } = decoded
    const paymentId = paymentIdOf(decoded)
    return {
      x402Version: 2,
      scheme: accepted.scheme,
      network: accepted.network,
      authorization: payload.authorization as Authorization,
      signature: payload.signature as `0x${string}`,
      accepted,
      raw: decoded as unknown as PaymentPayload,
      ...(paymentId ? { paymentId } : {}),
    }
  }
  if (checkV2Batch.Check(decoded)) {
    const payload = decoded.payload
    if (!checkBatchPayload.Check(payload)) throw malformed('not a batch-settlement deposit, voucher or refund payload')
    const paymentId = paymentIdOf(decoded)
    return {
      x402Version: 2,
      scheme: BATCH_SETTLEMENT,
      network: decoded.accepted.network,
      signature: payload.voucher.signature as `0x${string}`,
      accepted: decoded.accepted,
      batch: batchPaymentOf(payload),
      raw: decoded as unknown as PaymentPayload,
      ...(paymentId ? { paymentId } : {}),
    }
  }
  throw malformed('not an x402 v1 or v2 payment payload of the exact or batch-settlement EVM scheme')
}
