import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { DEV_PAY_TO } from '../src/config/config'
import { NETWORKS, type NetworkName } from '../src/payments/networks'
import { encodeProofV1, encodeProofV2, signAuthorization, usdcDomain } from '../src/payments/chain/sign'

export { TRANSFER_WITH_AUTHORIZATION } from '../src/payments/chain/sign'

/** A paying client that signs real EIP-3009 authorizations with viem, as x402 clients do. */
export interface ProofOptions {
  /** Atomic USDC (6 decimals), e.g. 100000n for USD 0.10. */
  value: bigint
  version?: 1 | 2
  network?: NetworkName
  payTo?: `0x${string}`
  nonce?: `0x${string}`
  validAfter?: bigint
  validBefore?: bigint
  /** v2 only: what the client claims it accepted (defaults match the authorization). */
  accepted?: Partial<{ amount: string; asset: string; payTo: string; network: string }>
}

export function createPayer(privateKey: `0x${string}` = generatePrivateKey()) {
  const account = privateKeyToAccount(privateKey)

  async function sign(options: ProofOptions) {
    const network = NETWORKS[options.network ?? 'base-sepolia']
    const now = BigInt(Math.floor(Date.now() / 1000))
    const { authorization, signature } = await signAuthorization(account, usdcDomain(network), {
      to: options.payTo ?? DEV_PAY_TO,
      value: options.value,
      validAfter: options.validAfter ?? now - 600n,
      validBefore: options.validBefore ?? now + 300n,
      nonce: options.nonce,
    })
    return { authorization, signature, network }
  }

  /** Base64 JSON proof, ready for the x402-payment / X-PAYMENT / PAYMENT-SIGNATURE header. */
  async function proof(options: ProofOptions): Promise<string> {
    const { authorization, signature, network } = await sign(options)
    const signed = { authorization, signature }
    if ((options.version ?? 1) === 1) return encodeProofV1(network.name, signed)
    return encodeProofV2(
      {
        scheme: 'exact',
        network: network.caip2,
        amount: authorization.value,
        asset: network.asset,
        payTo: authorization.to,
        maxTimeoutSeconds: 61,
        extra: network.eip712,
        ...options.accepted,
      },
      signed,
    )
  }

  return { account, address: account.address, privateKey, sign, proof }
}

/** Re-encodes a base64 JSON proof after changing it. */
export function editProof(proof: string, edit: (decoded: any) => void): string {
  const decoded = JSON.parse(Buffer.from(proof, 'base64').toString())
  edit(decoded)
  return Buffer.from(JSON.stringify(decoded)).toString('base64')
}
