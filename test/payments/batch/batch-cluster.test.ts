/**
 * x402 batch-settlement with two instances of the service on one PostgreSQL ledger (self mode, each
 * with its own settler key), on anvil with our escrow: a channel opened on one instance is paid with
 * vouchers on both, each charge known to the other at once; one `payments claim` claims them all.
 * Without PostgreSQL's server binaries: fails in CI, skipped locally.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { x402Client } from '@x402/core/client'
import { decodePaymentResponseHeader } from '@x402/core/http'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme as BatchClientScheme } from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../../src/config/config'
import { installBatchSettlement } from '../../../support/batch-chain'
import { anvilAccount, startChain, type Chain } from '../../../support/chain'
import { runCli } from '../../../support/cli-run'
import { keyOf } from '../../../support/facilitator'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../../support/postgres'
import { requireTool } from '../../../support/required-tool'
import { startServer, type StartedServer } from '../../../support/server'

const FILE = 'test/payments/batch/batch-cluster.test.ts'
const hasPostgres = requireTool(
  FILE,
  postgresMissing(),
  ".ci/run installs Debian's postgresql package; two instances share their channels in it",
)
const SLOW = 120_000
const NETWORK = 'eip155:84532'
const MONTHS = '/v1/market-data/flights/months'
const PRICE = 30_000n

describe.skipIf(!hasPostgres)('batch-settlement, two instances, one PostgreSQL ledger', () => {
  let chain: Chain
  let pg: StartedPostgres
  let instances: StartedServer[] = []
  let env: Record<string, string>

  beforeAll(async () => {
    ;[chain, pg] = await Promise.all([startChain(), startPostgres()])
    await installBatchSettlement(chain)
    env = {
      PAYMENT_MODE: 'self',
      X402_RPC_URL: chain.rpcUrl,
      RECONCILE_SECONDS: '0',
      RATE_LIMIT_PAYER_PER_MINUTE: '0',
      LEDGER_URL: pg.url,
      BATCH_NETWORKS: 'base-sepolia',
      BATCH_RECEIVER_AUTHORIZER_KEY: generatePrivateKey(),
      BATCH_WITHDRAW_DELAY_SECONDS: '900',
      BATCH_CLAIM_SECONDS: '225',
      BATCH_REFUND_IDLE_HOURS: '0',
      BATCH_MIN_DEPOSIT_USD: '0.5',
    }
    // One after the other: the first migrates the ledger.
    for (const account of [2, 3]) instances.push(await startServer({ ...env, X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(account)) }))
  }, SLOW)

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()))
    await chain?.stop()
    await pg?.destroy()
  })

  test(
    'a channel opened on one instance is charged on both in turn; one claim pays the seller for every call',
    async () => {
      const account = privateKeyToAccount(generatePrivateKey())
      await chain.fund(account.address, 1_000_000n)
      const charged: string[] = []
      const recording: typeof fetch = Object.assign(async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await fetch(input, init)
        const receipt = response.headers.get('payment-response')
        if (receipt)
          charged.push(
            (decodePaymentResponseHeader(receipt).extra as { channelState: { chargedCumulativeAmount: string } }).channelState
              .chargedCumulativeAmount,
          )
        return response
      }, fetch)
      const scheme = new BatchClientScheme(toClientEvmSigner(account, chain.client))
      const pay = wrapFetchWithPayment(recording, new x402Client().register(NETWORK, scheme))
      for (let call = 0; call < 10; call++) expect((await pay(instances[call % 2]!.url + MONTHS)).status).toBe(200)
      // Every voucher continued the total the other instance had charged: no corrective 402 on the way.
      expect(charged).toEqual(Array.from({ length: 10 }, (_, index) => String(PRICE * BigInt(index + 1))))
      const before = await chain.balanceOf(DEV_PAY_TO)
      const run = await runCli(['payments', 'claim'], { ...env, X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(4)) })
      expect(run.out).toContain('Claimed 0.30 USD in 1 transaction(s), settled 0.30 USD in 1')
      expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 10n * PRICE)
    },
    SLOW,
  )
})
