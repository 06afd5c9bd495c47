/**
 * Real money across instances: anvil with Circle's USDC, the facilitator process, two instances of the
 * service in `facilitator` mode on one PostgreSQL ledger, and the shipped nginx site in front. Every
 * claim about money is checked against on-chain balances.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { generatePrivateKey } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { usdToAtomic } from '../../src/core/usdc'
import type { Chain } from '../../support/chain'
import { startCluster, type Cluster } from '../../support/cluster'
import { createPayer } from '../../support/payer'
import { ONE_USDC, startChainAndFacilitator, whileNotMining, type ChainAndFacilitator } from '../../support/chain-and-facilitator'
import { postgresAndNginxReady, upstreamsServing } from '../../support/cluster-checks'
import { startPostgres, type StartedPostgres } from '../../support/postgres'
import { datasetsCopy } from '../../support/temp-dirs'
import { until } from '../../support/until'

const FILE = 'test/payments/onchain-cluster.test.ts'
const SLOW = 120_000
const URL_PATH = '/v1/market-data/flights/summary?destination=Tokyo'
const PRICE = usdToAtomic('0.10')

const ready = postgresAndNginxReady(FILE, 'the shared-ledger on-chain tests')

let onchain: ChainAndFacilitator
/** onchain's chain, which the tests read. */
let chain: Chain
let pg: StartedPostgres
let cluster: Cluster
let ledger: SQL

/** A paying client (real EIP-3009 signatures) holding one USDC on chain. */
async function fundedBuyer() {
  const payer = createPayer(generatePrivateKey())
  await chain.fund(payer.address, ONE_USDC)
  return payer
}

/** A funded buyer's proof for flights.summary, and DEV_PAY_TO's balance before it is used. */
async function fundedProof() {
  const buyer = await fundedBuyer()
  const proof = await buyer.proof({ value: PRICE })
  return { buyer, proof, before: await chain.balanceOf(DEV_PAY_TO) }
}

if (ready) {
  beforeAll(async () => {
    ;[onchain, pg] = await Promise.all([startChainAndFacilitator(), startPostgres()])
    chain = onchain.chain
    ledger = new SQL(pg.url)
    cluster = await startCluster({
      instances: 2,
      env: {
        ...onchain.serviceEnv,
        LEDGER_URL: pg.url,
        X402_FACILITATOR_TIMEOUT_SECONDS: '30',
        DATASETS_DIR: datasetsCopy('onchain-cluster-'),
        DATASETS_RELOAD_SECONDS: '0',
      },
    })
  }, SLOW)

  afterAll(async () => {
    await cluster?.stop()
    await ledger?.close()
    await onchain?.stop()
    await pg?.destroy()
  })

  describe('facilitator mode, two instances, one PostgreSQL ledger', () => {
    test(
      'one proof sent 20 times at once through the load balancer moves the price exactly once',
      async () => {
        const { buyer, proof, before } = await fundedProof()
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${cluster.url}${URL_PATH}`, { headers: { 'x402-payment': proof } })),
        )
        expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
        const bodies = await Promise.all(responses.map((r) => r.json()))
        expect(new Set(bodies.map((b) => b.meta.artifact_path)).size).toBe(1)
        expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + PRICE)
        expect(await chain.balanceOf(buyer.address)).toBe(ONE_USDC - PRICE)
        const rows = await ledger`SELECT state, settlement FROM payments WHERE payer = ${buyer.address.toLowerCase()}`
        expect(rows).toEqual([{ state: 'served', settlement: 'settled' }])
        const upstreams = await upstreamsServing(cluster, '/flights/summary', 2)
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
        const { buyer, proof, before } = await fundedProof()
        const [first] = cluster.instances
        // The facilitator's transfer waits in the mempool: the instance is in the middle of settling.
        await whileNotMining(chain, async () => {
          const inFlight = fetch(`${first!.url}${URL_PATH}`, { headers: { 'x402-payment': proof } }).then(
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
          first!.proc.kill('SIGKILL')
          expect(await inFlight).toBe('connection lost')
        })
        await chain.mine()
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
