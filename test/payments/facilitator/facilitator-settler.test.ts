import { afterAll, beforeAll, expect, test } from 'bun:test'
import { HTTPFacilitatorClient } from '@x402/core/http'
import { DEV_PAY_TO } from '../../../src/config/config'
import { createEvmFacilitator } from '../../../src/payments/chain/evm-facilitator'
import { FacilitatorSettler } from '../../../src/payments/facilitator/facilitator-settler'
import { anvilAccount, startChain, type Chain } from '../../../support/chain'
import { keyOf } from '../../../support/facilitator'
import { ONE_USDC } from '../../../support/chain-and-facilitator'
import { SUMMARY_TERMS, settlementInput } from '../../../support/settlement-input'

/**
 * The settler's reading of real facilitator answers: @x402/core's x402Facilitator with @x402/evm's
 * exact scheme, in process, over anvil with FiatTokenV2_2 (what `self` mode runs), and @x402/core's HTTP
 * client against a port where nothing listens (what `facilitator` mode sees when its facilitator is down).
 */

const PRICE = SUMMARY_TERMS.amountAtomic
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

for (const version of [1, 2] as const) {
  test(`x402 v${version}: verified, settled once with a receipt; the same authorization again is a definite failure that moves nothing`, async () => {
    const payment = await settlementInput(chain, { version, funded: ONE_USDC })
    expect(await settler.verify(payment)).toEqual({ ok: true })
    const settled = await settler.settle(payment)
    expect(settled).toMatchObject({
      status: 'settled',
      receipt: { success: true, network: version === 1 ? 'base-sepolia' : 'eip155:84532' },
    })
    expect(await chain.balanceOf(payment.payer)).toBe(ONE_USDC - PRICE)
    const again = await settler.settle(payment)
    expect(again.status).toBe('failed')
    expect(await chain.balanceOf(payment.payer)).toBe(ONE_USDC - PRICE)
    expect(await settler.verify(payment)).toMatchObject({ ok: false })
  }, 60_000)
}

test('a payer without the USDC fails verification, and a settle attempt anyway is a definite failure (nothing moves)', async () => {
  const payment = await settlementInput(chain, { funded: 0n })
  const verdict = await settler.verify(payment)
  expect(verdict).toMatchObject({ ok: false })
  expect((verdict as { unavailable?: boolean }).unavailable).toBeUndefined()
  const outcome = await settler.settle(payment)
  expect(outcome.status).toBe('failed')
  expect(await chain.balanceOf(DEV_PAY_TO)).toBe(2n * PRICE) // the two settlements above only
}, 60_000)

test('an authorization whose value was changed after signing is refused by the facilitator', async () => {
  const payment = await settlementInput(chain, {
    funded: ONE_USDC,
    edit: (authorization) => {
      authorization.nonce = `0x${'ab'.repeat(32)}` // the signature no longer matches
    },
  })
  expect(await settler.verify(payment)).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid_/) })
}, 60_000)

test('a facilitator that cannot be reached: verify is unavailable (502), settle a definite failure marked unavailable', async () => {
  const down = new FacilitatorSettler('facilitator', new HTTPFacilitatorClient({ url: 'http://127.0.0.1:9', timeoutMs: 2000 }))
  const payment = await settlementInput(chain, { funded: 0n })
  expect(await down.verify(payment)).toMatchObject({ ok: false, unavailable: true, reason: 'facilitator_unreachable' })
  expect(await down.settle(payment)).toMatchObject({ status: 'failed', unavailable: true })
}, 60_000)
