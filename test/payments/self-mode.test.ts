import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEV_PAY_TO } from '../../src/config/config'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { recordingFetch, v1Client, v2Client } from '../../support/clients'
import { keyOf } from '../../support/facilitator'
import { startServer, type StartedServer } from '../../support/server'

/**
 * `self` mode: the service verifies and settles in process (@x402/core's x402Facilitator with @x402/evm's
 * exact scheme) over X402_RPC_URL with its own settler key: no facilitator process. The payer limit is
 * set low to show that a limited payer is refused before anything is settled.
 */

const SLOW = 60_000
const PAYER_LIMIT = 2
const ONE_USDC = 1_000_000n
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
let chain: Chain
let server: StartedServer

beforeAll(async () => {
  chain = await startChain()
  server = await startServer({
    PAYMENT_MODE: 'self',
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    RECONCILE_SECONDS: '0',
    RATE_LIMIT_PAYER_PER_MINUTE: String(PAYER_LIMIT),
    LOG_LEVEL: 'info',
  })
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

async function buyer() {
  const account = privateKeyToAccount(generatePrivateKey())
  await chain.fund(account.address, ONE_USDC)
  return account
}

test(
  'both x402 generations settle on chain in self mode: the price moves from payer to payTo, the settler pays the gas',
  async () => {
    const a = await buyer()
    const b = await buyer()
    const before = await chain.balanceOf(DEV_PAY_TO)
    const settlerEth = await chain.client.getBalance({ address: anvilAccount(2).address })
    const [r1, r2] = [
      await v1Client(a, recordingFetch().fetch, ONE_USDC)(server.url + SUMMARY),
      await v2Client(b, recordingFetch().fetch)(server.url + SUMMARY),
    ]
    expect([r1.status, r2.status]).toEqual([200, 200])
    expect(await chain.balanceOf(DEV_PAY_TO)).toBe(before + 200_000n)
    expect([await chain.balanceOf(a.address), await chain.balanceOf(b.address)]).toEqual([ONE_USDC - 100_000n, ONE_USDC - 100_000n])
    expect(await chain.client.getBalance({ address: anvilAccount(2).address })).toBeLessThan(settlerEth)
    expect(server.output()).toContain('settled in-process')
    expect(server.output()).not.toContain(keyOf(anvilAccount(2)).slice(2))
  },
  SLOW,
)

test(
  `a payer over ${PAYER_LIMIT} paid requests a minute gets 429 rate_limited with Retry-After, and is not charged for it`,
  async () => {
    const a = await buyer()
    const pay = v2Client(a, recordingFetch().fetch)
    for (let i = 0; i < PAYER_LIMIT; i++) expect((await pay(`${server.url}/v1/market-data/flights/months`)).status).toBe(200)
    const charged = await chain.balanceOf(a.address)
    expect(charged).toBe(ONE_USDC - BigInt(PAYER_LIMIT) * 30_000n)
    const limited = await pay(`${server.url}/v1/market-data/flights/months`)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = await limited.json()
    expect(body).toMatchObject({
      success: false,
      error: { code: 'rate_limited', details: { scope: 'payer' } },
      meta: { request_id: limited.headers.get('x-request-id') },
    })
    expect(await chain.balanceOf(a.address)).toBe(charged)
    // Another payer from the same client is not affected.
    expect((await v1Client(await buyer(), recordingFetch().fetch, ONE_USDC)(`${server.url}/v1/market-data/flights/months`)).status).toBe(
      200,
    )
  },
  SLOW,
)
