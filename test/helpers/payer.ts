import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { toHex } from 'viem'
import { DEV_PAY_TO } from '../../src/config'
import { NETWORKS, type NetworkName } from '../../src/payments/networks'

/** EIP-712 types of EIP-3009's TransferWithAuthorization, as x402 clients sign it (viem form). */
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

  async function sign(o: ProofOptions) {
    const network = NETWORKS[o.network ?? 'base-sepolia']
    const now = BigInt(Math.floor(Date.now() / 1000))
    const authorization = {
      from: account.address,
      to: o.payTo ?? DEV_PAY_TO,
      value: o.value.toString(),
      validAfter: (o.validAfter ?? now - 600n).toString(),
      validBefore: (o.validBefore ?? now + 300n).toString(),
      nonce: o.nonce ?? toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signature = await account.signTypedData({
      domain: { ...network.eip712, chainId: network.chainId, verifyingContract: network.asset },
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...authorization,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
      },
    })
    return { authorization, signature, network }
  }

  /** Base64 JSON proof, ready for the x402-payment / X-PAYMENT / PAYMENT-SIGNATURE header. */
  async function proof(o: ProofOptions): Promise<string> {
    const { authorization, signature, network } = await sign(o)
    const payload = { signature, authorization }
    const body =
      (o.version ?? 1) === 1
        ? { x402Version: 1, scheme: 'exact', network: network.name, payload }
        : {
            x402Version: 2,
            accepted: {
              scheme: 'exact', network: network.caip2, amount: authorization.value, asset: network.asset,
              payTo: authorization.to, maxTimeoutSeconds: 61, extra: network.eip712, ...o.accepted,
            },
            payload,
          }
    return Buffer.from(JSON.stringify(body)).toString('base64')
  }

  return { account, address: account.address, privateKey, sign, proof }
}

/** Re-encodes a base64 JSON proof after changing it. */
export function editProof(proof: string, edit: (p: any) => void): string {
  const p = JSON.parse(Buffer.from(proof, 'base64').toString())
  edit(p)
  return Buffer.from(JSON.stringify(p)).toString('base64')
}
