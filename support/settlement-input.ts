import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { routeById } from '../src/catalog'
import { DEV_PAY_TO } from '../src/config/config'
import { NETWORKS } from '../src/payments/networks'
import { decodeProof } from '../src/payments/gate/proof'
import { termsFor } from '../src/payments/gate/requirements'
import type { SettlementInput } from '../src/payments/settler'
import { encodeProofV1, encodeProofV2, signAuthorization, usdcDomain } from '../src/payments/chain/sign'
import type { Chain } from './chain'
import { DEV_OFFER } from './offers'

/** What the tests buy at the settler's level: flights.summary on Base Sepolia, paid to DEV_PAY_TO. */
export const SUMMARY_TERMS = termsFor(routeById.get('flights.summary')!, DEV_OFFER)

/**
 * A signed x402 payment of flights.summary by a fresh payer holding `funded` USDC on `chain` (none when 0),
 * as the gate hands it to the settler. `edit` changes the signed authorization before it is encoded, as a
 * tampering client would.
 */
export async function settlementInput(
  chain: Chain,
  options: { funded: bigint; version?: 1 | 2; edit?: (authorization: Record<string, string>) => void },
): Promise<SettlementInput & { payer: Hex; nonce: Hex }> {
  const network = NETWORKS['base-sepolia']
  const account = privateKeyToAccount(generatePrivateKey())
  if (options.funded > 0n) await chain.fund(account.address, options.funded)
  const now = BigInt(Math.floor(Date.now() / 1000))
  const signed = await signAuthorization(account, usdcDomain(network), {
    to: DEV_PAY_TO,
    value: SUMMARY_TERMS.amountAtomic,
    validAfter: now - 600n,
    validBefore: now + 300n,
  })
  options.edit?.(signed.authorization as unknown as Record<string, string>)
  const header =
    (options.version ?? 2) === 1
      ? encodeProofV1(network.name, signed)
      : encodeProofV2(
          {
            scheme: 'exact',
            network: network.caip2,
            amount: SUMMARY_TERMS.amountAtomic.toString(),
            asset: network.asset,
            payTo: DEV_PAY_TO,
            maxTimeoutSeconds: SUMMARY_TERMS.maxTimeoutSeconds,
            extra: network.eip712,
          },
          signed,
        )
  return {
    proof: decodeProof(header),
    terms: SUMMARY_TERMS,
    route: routeById.get('flights.summary')!,
    resourceUrl: 'http://127.0.0.1/v1/market-data/flights/summary',
    payer: account.address,
    nonce: signed.authorization.nonce as Hex,
  }
}
