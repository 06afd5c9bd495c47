import { afterAll, beforeAll, expect, test } from 'bun:test'
import { DEV_OFFER } from '../../support/offers'
import { HTTPFacilitatorClient } from '@x402/core/http'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { routeById } from '../../src/catalog'
import { DEV_PAY_TO } from '../../src/config/config'
import { createEvmFacilitator } from '../../src/payments/evm-facilitator'
import { FacilitatorSettler } from '../../src/payments/facilitator-settler'
import { NETWORKS } from '../../src/payments/networks'
import { decodeProof } from '../../src/payments/proof'
import { termsFor } from '../../src/payments/requirements'
import { encodeProofV1, encodeProofV2, signAuthorization, usdcDomain } from '../../src/payments/sign'
import type { SettlementInput } from '../../src/payments/settler'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { keyOf } from '../../support/facilitator'

/**
 * The settler's reading of real facilitator answers: @x402/core's x402Facilitator with @x402/evm's
 * exact scheme, in process, over anvil with FiatTokenV2_2 (what `self` mode runs), and @x402/core's HTTP
 * client against a port where nothing listens (what `facilitator` mode sees when its facilitator is down).
 */

const network = NETWORKS['base-sepolia']
const route = routeById.get('flights.summary')!
const terms = termsFor(route, DEV_OFFER)
let chain: Chain
let settler: FacilitatorSettler

beforeAll(async () => {
  chain = await startChain()
  settler = new FacilitatorSettler(
    'self',
    createEvmFacilitator({ networks: [{ network: 'base-sepolia', rpcUrl: chain.rpcUrl }], privateKey: keyOf(anvilAccount(3)) }).facilitator,
  )
}, 60_000)
afterAll(async () => {
  await chain?.stop()
})

async function input(
  version: 1 | 2,
  funded: bigint,
  edit: (a: Record<string, string>) => void = () => {},
): Promise<SettlementInput & { payer: `0x${string}` }> {
  const account = privateKeyToAccount(generatePrivateKey())
  if (funded > 0n) await chain.fund(account.address, funded)
  const now = BigInt(Math.floor(Date.now() / 1000))
  const signed = await signAuthorization(account, usdcDomain(network), {
    to: DEV_PAY_TO,
    value: terms.amountAtomic,
    validAfter: now - 600n,
    validBefore: now + 300n,
  })
  edit(signed.authorization as unknown as Record<string, string>)
  const header =
    version === 1
      ? encodeProofV1(network.name, signed)
      : encodeProofV2(
          {
            scheme: 'exact',
            network: network.caip2,
            amount: terms.amountAtomic.toString(),
            asset: network.asset,
            payTo: DEV_PAY_TO,
            maxTimeoutSeconds: terms.maxTimeoutSeconds,
            extra: network.eip712,
          },
          signed,
        )
  return {
    proof: decodeProof(header),
    terms,
    route,
    resourceUrl: 'http://127.0.0.1/v1/market-data/flights/summary',
    payer: account.address,
  }
}

for (const version of [1, 2] as const) {
  test(`x402 v${version}: verified, settled once with a receipt; the same authorization again is a definite failure that moves nothing`, async () => {
    const i = await input(version, 1_000_000n)
    expect(await settler.verify(i)).toEqual({ ok: true })
    const settled = await settler.settle(i)
    expect(settled).toMatchObject({
      status: 'settled',
      receipt: { success: true, network: version === 1 ? 'base-sepolia' : 'eip155:84532' },
    })
    expect(await chain.balanceOf(i.payer)).toBe(1_000_000n - terms.amountAtomic)
    const again = await settler.settle(i)
    expect(again.status).toBe('failed')
    expect(await chain.balanceOf(i.payer)).toBe(1_000_000n - terms.amountAtomic)
    expect(await settler.verify(i)).toMatchObject({ ok: false })
  }, 60_000)
}

test('a payer without the USDC fails verification, and a settle attempt anyway is a definite failure (nothing moves)', async () => {
  const i = await input(2, 0n)
  const verdict = await settler.verify(i)
  expect(verdict).toMatchObject({ ok: false })
  expect((verdict as { unavailable?: boolean }).unavailable).toBeUndefined()
  const outcome = await settler.settle(i)
  expect(outcome.status).toBe('failed')
  expect(await chain.balanceOf(DEV_PAY_TO)).toBe(2n * terms.amountAtomic) // the two settlements above only
}, 60_000)

test('an authorization whose value was changed after signing is refused by the facilitator', async () => {
  const i = await input(2, 1_000_000n, (a) => {
    a.nonce = `0x${'ab'.repeat(32)}` // the signature no longer matches
  })
  expect(await settler.verify(i)).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_/) })
}, 60_000)

test('a facilitator that cannot be reached: verify is unavailable (502), settle a definite failure marked unavailable', async () => {
  const down = new FacilitatorSettler('facilitator', new HTTPFacilitatorClient({ url: 'http://127.0.0.1:9', timeoutMs: 2000 }))
  const i = await input(2, 0n)
  expect(await down.verify(i)).toMatchObject({ ok: false, unavailable: true, reason: 'facilitator_unreachable' })
  expect(await down.settle(i)).toMatchObject({ status: 'failed', unavailable: true })
}, 60_000)
