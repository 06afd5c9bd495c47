import { wrapFetchWithPayment as wrapV1, createSigner } from 'x402-fetch'
import { wrapFetchWithPayment as wrapV2, x402Client } from '@x402/fetch'
import { registerExactEvmScheme } from '@x402/evm/exact/client'
import type { LocalAccount } from 'viem/accounts'

/** Header names a payment proof may travel in (lower case, as `Headers` reports them). */
export const PROOF_HEADER_NAMES = ['x402-payment', 'x-payment', 'payment-signature'] as const
export type ProofHeaderName = (typeof PROOF_HEADER_NAMES)[number]

/** One request as it actually left for the server, after any header rewriting, and the status it got. */
export interface Exchange {
  url: string
  /** The proof headers the server received, by name. */
  proofs: Partial<Record<ProofHeaderName, string>>
  status: number
}

export interface RecordingFetch {
  fetch: typeof fetch
  exchanges: Exchange[]
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

export function isLoopback(url: string): boolean {
  return LOOPBACK.has(new URL(url).hostname)
}

/**
 * The `fetch` handed to a payment wrapper: records every request that reaches the server and, with
 * `moveProofTo`, moves the client's own proof header (X-PAYMENT or PAYMENT-SIGNATURE) into that header
 * name, deleting the original, so the server only ever sees the proof under our spec's name.
 * Refuses anything but loopback: the service under test is the only host these clients may reach.
 */
export function recordingFetch(options: { moveProofTo?: 'x402-payment'; base?: typeof fetch } = {}): RecordingFetch {
  const base = options.base ?? globalThis.fetch
  const exchanges: Exchange[] = []
  const wrapped = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    if (!isLoopback(request.url)) throw new Error(`payment client tried to reach ${request.url}`)
    if (options.moveProofTo) {
      for (const name of ['x-payment', 'payment-signature'] as const) {
        const value = request.headers.get(name)
        if (value === null) continue
        request.headers.delete(name)
        request.headers.set(options.moveProofTo, value)
      }
    }
    const proofs: Exchange['proofs'] = {}
    for (const name of PROOF_HEADER_NAMES) {
      const value = request.headers.get(name)
      if (value !== null) proofs[name] = value
    }
    const response = await base(request)
    exchanges.push({ url: request.url, proofs, status: response.status })
    return response
  }
  return { fetch: wrapped as typeof fetch, exchanges }
}

export type PayingFetch = (url: string) => Promise<Response>

/** USD 0.20 in atomic USDC: above every route these tests buy (x402-fetch refuses more than 0.10 by default). */
export const V1_MAX_ATOMIC = 200_000n

/**
 * `x402-fetch` 1.2.0 (x402 v1) as its README configures it, with a viem local account as the signer.
 * `maxValue: 'library-default'` leaves the argument out, keeping the library's own 0.10 USDC limit.
 */
export function v1Client(
  account: LocalAccount,
  fetchImpl: typeof fetch,
  maxValue: bigint | 'library-default' = V1_MAX_ATOMIC,
): PayingFetch {
  // x402-fetch is a test part (test/parts) with its own copy of viem: the same account, typed by the other copy.
  const signer = account as unknown as Parameters<typeof wrapV1>[1]
  return maxValue === 'library-default' ? wrapV1(fetchImpl, signer) : wrapV1(fetchImpl, signer, maxValue)
}

/** `x402-fetch` with the wallet client from its own `createSigner('base-sepolia', key)` (viem http transport). */
export async function v1WalletClient(privateKey: `0x${string}`, fetchImpl: typeof fetch): Promise<PayingFetch> {
  return wrapV1(fetchImpl, await createSigner('base-sepolia', privateKey), V1_MAX_ATOMIC)
}

/**
 * `@x402/fetch` 2.27.0 (x402 v2) with the exact EVM scheme of `@x402/evm` registered for a viem local
 * account: on every EVM network, or only on `networks` (CAIP-2 ids: a wallet that holds USDC there only).
 */
export function v2Client(account: LocalAccount, fetchImpl: typeof fetch, networks?: `eip155:${number}`[]): PayingFetch {
  const client = new x402Client()
  registerExactEvmScheme(client, { signer: account, ...(networks ? { networks } : {}) })
  return wrapV2(fetchImpl, client)
}

/** Decodes a base64 JSON proof header. */
export function decodeProofHeader(value: string): any {
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8'))
}
