import type { LocalAccount } from 'viem/accounts'
import type { Authorization, Eip712Domain } from './eip3009'
import type { NetworkInfo } from '../networks'

/**
 * The paying side of an x402 `exact` EVM payment: an EIP-3009 `TransferWithAuthorization` signed with
 * viem (EIP-712), encoded as the base64 JSON proof the server reads. The smoke command and the tests
 * sign through here; the server only verifies (eip3009.ts, verify-local.ts).
 */

/** A fresh 32-byte EIP-3009 nonce as hex (not viem's toHex: loading viem's index costs the server's start-up ~90 ms, and this module is on its face). */
const randomNonce = (): `0x${string}` => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`

/** EIP-712 types of EIP-3009's TransferWithAuthorization, as x402 clients sign it. */
export const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const

/** The USDC contract's EIP-712 domain on a network. */
export function usdcDomain(network: NetworkInfo): Eip712Domain {
  return { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset }
}

export interface AuthorizationTerms {
  to: `0x${string}`
  /** Atomic USDC (6 decimals). */
  value: bigint
  validAfter: bigint
  validBefore: bigint
  /** Random 32 bytes when omitted: EIP-3009 nonces are single-use per payer. */
  nonce?: `0x${string}`
}

export interface SignedAuthorization {
  /** Numbers as decimal strings, as the proof carries them. */
  authorization: Authorization
  signature: `0x${string}`
}

export type PayerAccount = Pick<LocalAccount, 'address' | 'signTypedData'>

export async function signAuthorization(
  account: PayerAccount,
  domain: Eip712Domain,
  terms: AuthorizationTerms,
): Promise<SignedAuthorization> {
  const nonce = terms.nonce ?? randomNonce()
  const message = {
    from: account.address,
    to: terms.to,
    value: terms.value,
    validAfter: terms.validAfter,
    validBefore: terms.validBefore,
    nonce,
  }
  const signature = await account.signTypedData({
    domain,
    types: TRANSFER_WITH_AUTHORIZATION,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  return {
    authorization: {
      ...message,
      value: terms.value.toString(),
      validAfter: terms.validAfter.toString(),
      validBefore: terms.validBefore.toString(),
    },
    signature,
  }
}

/** What an x402 v2 proof says it accepted: the requirement it pays (one `accepts` entry of the 402). */
export interface AcceptedRequirement {
  scheme: string
  network: string
  amount: string
  asset: string
  payTo: string
  maxTimeoutSeconds?: number
  extra?: Record<string, unknown>
}

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')

/** x402 v1 proof (what `x402-fetch` sends in X-PAYMENT); `network` is the v1 name, e.g. `base-sepolia`. */
export function encodeProofV1(network: string, signed: SignedAuthorization): string {
  return base64Json({ x402Version: 1, scheme: 'exact', network, payload: signed })
}

/** x402 v2 proof (what `@x402/fetch` sends in PAYMENT-SIGNATURE), echoing the requirement it pays. */
export function encodeProofV2(accepted: AcceptedRequirement, signed: SignedAuthorization): string {
  return base64Json({ x402Version: 2, accepted, payload: signed })
}
