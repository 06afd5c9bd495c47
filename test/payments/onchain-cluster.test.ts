/**
 * Real money across instances: anvil with Circle's USDC, the facilitator process, two instances of the
 * service in `facilitator` mode on one PostgreSQL ledger, and the shipped nginx site in front. Every
 * claim about money is checked against on-chain balances.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { usdToAtomic } from '../../src/core/usdc'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { startCluster, type Cluster } from '../../support/cluster'
import { startFacilitator, type StartedFacilitator } from '../../support/facilitator'
import { nginxBinary } from '../../support/nginx'
import { createPayer } from '../../support/payer'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../support/postgres'
import { requireTool } from '../../support/required-tool'
import { until } from '../../support/until'

const FILE = 'test/payments/onchain-cluster.test.ts'
const ROOT = resolve(import.meta.dir, '../..')
const SLOW = 120_000
const ONE_USDC = 1_000_000n
const URL_PATH = '/v1/market-data/flights/summary?destination=Tokyo'
const PRICE = usdToAtomic('0.10')

const ready =
  requireTool(FILE, postgresMissing(), 'the shared-ledger on-chain tests run a real PostgreSQL (.ci/run installs it)') &&
  requireTool(
    FILE,
    nginxBinary() ? null : 'nginx not found',
    'the shared-ledger on-chain tests run nginx as the load balancer (.ci/run installs it)',
  )

let chain: Chain
let facilitator: StartedFacilitator
let pg: StartedPostgres
let cluster: Cluster
let ledger: SQL
let dir: string | undefined

/** A paying client (real EIP-3009 signatures) holding one USDC on chain. */
async function fundedBuyer() {
  const payer = createPayer(generatePrivateKey())
  await chain.fund(payer.address, ONE_USDC)
  return payer
}

if (ready) {
  beforeAll(async () => {
    ;[chain, pg] = await Promise.all([startChain(), startPostgres()])
    facilitator = await startFacilitator({ rpcUrl: chain.rpcUrl, settler: anvilAccount(1) })
    dir = mkdtempSync(join(tmpdir(), 'onchain-cluster-'))
    cpSync(join(ROOT, 'datasets'), join(dir, 'datasets'), { recursive: true })
    ledger = new SQL(pg.url)
    cluster = await startCluster({
      instances: 2,
      env: {
        LEDGER_URL: pg.url,
        PAYMENT_MODE: 'facilitator',
        X402_FACILITATOR_URL: facilitator.url,
        X402_RPC_URL: chain.rpcUrl,
        X402_FACILITATOR_TIMEOUT_SECONDS: '30',
        RECONCILE_SECONDS: '0',
        DATASETS_DIR: join(dir, 'datasets'),
        DATASETS_RELOAD_SECONDS: '0',
      },
    })
  }, SLOW)

  afterAll(async () => {
    await cluster?.stop()
    await ledger?.close()
    await facilitator?.stop()
    await chain?.stop()
    await pg?.destroy()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  describe('facilitator mode, two instances, one PostgreSQL ledger', () => {
    test(
      'one proof sent 20 times at once through the load balancer moves the price exactly once',
      async () => {
        const funded = await fundedBuyer()
        const proof = await funded.proof({ value: PRICE })
        const before = await chain.balanceOf(DEV_PAY_TO)
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${cluster.url}${URL_PATH}`, { headers: { 'x402-payment': proof } })),
        )
        expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
        const bodies = await Promise.all(responses.map((r) => r.json()))
        expect(new Set(bodies.map((b) => b.meta.artifact_path)).size).toBe(1)
        expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE)
        expect(await chain.balanceOf(funded.address)).toBe(ONE_USDC - PRICE)
        const rows = await ledger`SELECT state, settlement FROM payments WHERE payer = ${funded.address.toLowerCase()}`
        expect(rows).toEqual([{ state: 'served', settlement: 'settled' }])
        const upstreams = await until('the access log to name both instances', async () => {
          const seen = new Set(
            cluster.nginx
              .accessLog()
              .split('\n')
              .filter((l) => l.includes('/flights/summary'))
              .map((l) => l.trim().split(' ').at(-1)),
          )
          return seen.size >= 2 ? seen : undefined
        })
        expect(upstreams.size).toBe(2)
      },
      SLOW,
    )

    test(
      'ten buyers through the load balancer: ten prices moved, ten settled payments recorded',
      async () => {
        const buyers = await Promise.all(Array.from({ length: 10 }, fundedBuyer))
        const before = await chain.balanceOf(DEV_PAY_TO)
        const responses = await Promise.all(
          buyers.map(async (b) => fetch(`${cluster.url}${URL_PATH}`, { headers: { 'x402-payment': await b.proof({ value: PRICE }) } })),
        )
        expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200))
        expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 10n * PRICE)
        const rows = await ledger.unsafe(
          `SELECT COUNT(*)::int AS n FROM payments WHERE state = 'served' AND settlement = 'settled' AND payer = ANY($1::text[])`,
          [`{${buyers.map((b) => b.address.toLowerCase()).join(',')}}`],
        )
        expect(rows[0].n).toBe(10)
      },
      SLOW,
    )

    test(
      'an instance killed after its settlement was sent: the retry on the other instance answers without a second transfer',
      async () => {
        const buyer = await fundedBuyer()
        const proof = await buyer.proof({ value: PRICE })
        const before = await chain.balanceOf(DEV_PAY_TO)
        const [a] = cluster.instances
        // The facilitator's transfer waits in the mempool: the instance is in the middle of settling.
        await chain.setAutomine(false)
        try {
          const inFlight = fetch(`${a!.url}${URL_PATH}`, { headers: { 'x402-payment': proof } }).then(
            (r) => r.status,
            () => 'connection lost',
          )
          await until('the settlement in the mempool', async () => {
            const pending = (await chain.client.request({
              method: 'eth_getBlockByNumber' as never,
              params: ['pending', false] as never,
            })) as { transactions: string[] } | null
            return pending && pending.transactions.length > 0 ? true : undefined
          })
          a!.proc.kill('SIGKILL')
          expect(await inFlight).toBe('connection lost')
        } finally {
          await chain.setAutomine(true)
          await chain.mine()
        }
        // The transfer landed although its instance died before recording it.
        expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE)
        expect((await ledger`SELECT state FROM payments WHERE payer = ${buyer.address.toLowerCase()}`)[0].state).toBe('in_progress')

        const retry = await fetch(`${cluster.url}${URL_PATH}`, { headers: { 'x402-payment': proof } })
        expect(retry.status).toBe(200)
        expect((await retry.json()).data.destination).toBe('Tokyo')
        expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE) // not a second time
        expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - PRICE)
        const [row] = await ledger`SELECT state, settlement, tx_hash FROM payments WHERE payer = ${buyer.address.toLowerCase()}`
        expect(row).toMatchObject({ state: 'served', settlement: 'settled' })
        const events = await ledger`SELECT event, detail FROM payment_events WHERE payer = ${buyer.address.toLowerCase()} ORDER BY seq`
        expect(events.map((e: { event: string }) => e.event)).toEqual(['verified', 'verified', 'settled', 'served'])
        expect(events.find((e: { event: string }) => e.event === 'settled').detail).toBe('settled before its process died')
      },
      SLOW,
    )
  })
}
