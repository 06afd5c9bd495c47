/**
 * x402 batch-settlement in `facilitator` mode: the service's batch scheme works through the standard
 * HTTP facilitator API (scripts/facilitator.ts, a separate process that makes the deposits, claims,
 * settlements and refunds), on anvil with our escrow.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { x402Client } from '@x402/core/client'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as BatchClientScheme } from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../../src/config/config'
import { installBatchSettlement } from '../../../support/batch-chain'
import { startChainAndFacilitator, type ChainAndFacilitator } from '../../../support/chain-and-facilitator'
import { runCli } from '../../../support/cli-run'
import { startServer, type StartedServer } from '../../../support/server'
import { tempDir } from '../../../support/temp-dirs'

const SLOW = 90_000
const NETWORK = 'eip155:84532'
const MONTHS = '/v1/market-data/flights/months'
const PRICE = 30_000n
const DEPOSIT = 300_000n
let onchain: ChainAndFacilitator
let server: StartedServer
let env: Record<string, string>

beforeAll(async () => {
  onchain = await startChainAndFacilitator()
  await installBatchSettlement(onchain.chain)
  env = {
    ...onchain.serviceEnv,
    RATE_LIMIT_PAYER_PER_MINUTE: '0',
    LEDGER_PATH: `${tempDir('batch-facilitator')}/ledger.sqlite`,
    BATCH_NETWORKS: 'base-sepolia',
    BATCH_RECEIVER_AUTHORIZER_KEY: generatePrivateKey(),
    BATCH_WITHDRAW_DELAY_SECONDS: '900',
    BATCH_CLAIM_SECONDS: '225',
    BATCH_REFUND_IDLE_HOURS: '0',
    BATCH_MIN_DEPOSIT_USD: '0.3',
  }
  server = await startServer(env)
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await onchain?.stop()
})

test(
  'deposit, vouchers, claim and settle, refund: every chain action through the HTTP facilitator',
  async () => {
    const chain = onchain.chain
    const account = privateKeyToAccount(generatePrivateKey())
    await chain.fund(account.address, 1_000_000n)
    const scheme = new BatchClientScheme(toClientEvmSigner(account, chain.client))
    const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, scheme))
    for (let call = 0; call < 3; call++) expect((await pay(server.url + MONTHS)).status).toBe(200)
    expect(await chain.balanceOf(account.address)).toBe(1_000_000n - DEPOSIT)
    const before = await chain.balanceOf(DEV_PAY_TO)
    const run = await runCli(['payments', 'claim'], env)
    expect(run.out).toContain('Claimed 0.09 USD in 1 transaction(s), settled 0.09 USD in 1')
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 3n * PRICE)
    expect((await scheme.refund(server.url + MONTHS)).success).toBe(true)
    expect(await chain.balanceOf(account.address)).toBe(1_000_000n - 3n * PRICE)
  },
  SLOW,
)
