import { authorizationDigest, domainSeparator, recoverSigner } from '../chain/eip3009'
import type { ExactProof } from './proof'
import type { PaymentTerms } from './requirements'

/** Authorizations must stay valid this long past verification, so settlement can still land. */
export const VALID_BEFORE_MARGIN_SECONDS = 6

export type VerifyResult = { ok: true; payer: `0x${string}` } | { ok: false; reason: string; message: string }

const separators = new Map<string, Uint8Array>()
function separatorFor(terms: PaymentTerms): Uint8Array {
  const key = `${terms.network.chainId}:${terms.network.asset}`
  let sep = separators.get(key)
  if (!sep) {
    sep = domainSeparator({ ...terms.network.eip712, chainId: terms.network.chainId, verifyingContract: terms.network.asset })
    separators.set(key, sep)
  }
  return sep
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
const fail = (reason: string, message: string): VerifyResult => ({ ok: false, reason, message })

/**
 * Offline verification of an `exact` EVM proof against one route's terms: scheme, network, asset,
 * payee, exact amount, time window and the EIP-712 signature. Nonce reuse is the ledger's job.
 */
export function verifyLocally(
  proof: ExactProof,
  terms: PaymentTerms,
  nowSeconds: number,
  options: { ignoreTime?: boolean; contractSignatures?: boolean } = {},
): VerifyResult {
  const { network } = terms
  if (proof.scheme !== 'exact') return fail('unsupported_scheme', `Scheme "${proof.scheme}" is not accepted; use "exact".`)
  if (proof.network !== (proof.x402Version === 1 ? network.v1 : network.caip2))
    return fail('wrong_network', `Network "${proof.network}" is not accepted; use ${network.name} (${network.caip2}).`)
  const authorization = proof.authorization
  if (proof.accepted) {
    if (!same(proof.accepted.asset, network.asset)) return fail('wrong_asset', `Asset must be ${network.asset}.`)
    if (!same(proof.accepted.payTo, terms.payTo)) return fail('wrong_recipient', `payTo must be ${terms.payTo}.`)
    if (proof.accepted.amount !== terms.amountAtomic.toString())
      return fail('wrong_amount', `This route costs ${terms.amountAtomic} atomic USDC; the proof accepted ${proof.accepted.amount}.`)
  }
  if (!same(authorization.to, terms.payTo))
    return fail('wrong_recipient', `The authorization pays ${authorization.to}, not ${terms.payTo}.`)
  if (BigInt(authorization.value) !== terms.amountAtomic)
    return fail('wrong_amount', `This route costs ${terms.amountAtomic} atomic USDC; the authorization is for ${authorization.value}.`)
  if (!options.ignoreTime && BigInt(authorization.validAfter) > BigInt(nowSeconds))
    return fail('not_yet_valid', 'The authorization is not valid yet (validAfter is in the future).')
  if (!options.ignoreTime && BigInt(authorization.validBefore) <= BigInt(nowSeconds + VALID_BEFORE_MARGIN_SECONDS))
    return fail('expired', 'The authorization has expired (validBefore has passed or is too close).')
  // A smart-wallet (ERC-1271/6492) signature can only be checked on chain: the facilitator does that.
  if (proof.signature.length !== 132 && options.contractSignatures)
    return { ok: true, payer: authorization.from.toLowerCase() as `0x${string}` }
  if (proof.signature.length !== 132)
    return fail('invalid_signature', 'Only 65-byte ECDSA signatures can be verified in local payment mode.')
  const signer = recoverSigner(authorizationDigest(separatorFor(terms), authorization), proof.signature)
  if (!signer || !same(signer, authorization.from))
    return fail('invalid_signature', 'The signature does not match the authorization and its payer.')
  return { ok: true, payer: signer }
}
