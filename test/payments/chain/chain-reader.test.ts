/**
 * The reconciler looks for a used authorization's transaction by time, not by a block count sized for
 * Base (9,000 blocks: 5 hours of Base, 37 minutes of Arbitrum), across log ranges each within the RPCs'
 * cap. Shortened here (anvil mines about a thousand blocks a second): a look-back of 200 s and ranges of
 * 100 blocks, on anvil as Arbitrum Sepolia (quarter-second blocks: 800 blocks back; on Base, 100).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestClient, http } from 'viem'
import { createChainReader } from '../../../src/payments/chain/chain-reader'
import { NETWORKS } from '../../../src/payments/networks'
import { startChain, type Chain } from '../../../support/chain'
import { fundedAccount, submittedTransfer } from '../../../support/chain-and-facilitator'

const SLOW = 90_000
const NETWORK = NETWORKS['arbitrum-sepolia']
let chain: Chain

beforeAll(async () => {
  chain = await startChain({ network: 'arbitrum-sepolia' })
}, SLOW)
afterAll(async () => {
  await chain?.stop()
})

test(
  'a transfer 600 blocks back is within 200 s of quarter-second blocks (found in the 6th range back), and past it at 900',
  async () => {
    const account = await fundedAccount(chain)
    const { authorization, hash } = await submittedTransfer(chain, account, '0x4444444444444444444444444444444444444444', 30_000n)
    const anvil = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl, { timeout: 60_000 }) })
    const reader = createChainReader({ 'arbitrum-sepolia': chain.rpcUrl }, { lookbackSeconds: 200, rangeBlocks: 100n })
    await anvil.mine({ blocks: 600 })
    expect(await reader.transactionOf!(NETWORK.caip2, account.address, authorization.nonce)).toBe(hash)
    await anvil.mine({ blocks: 300 })
    expect(await reader.transactionOf!(NETWORK.caip2, account.address, authorization.nonce)).toBeUndefined()
  },
  SLOW,
)
