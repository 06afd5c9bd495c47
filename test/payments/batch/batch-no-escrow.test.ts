/**
 * Self mode with BATCH_NETWORKS on a chain without the batch-settlement escrow: every deposit would fail,
 * so the service offers exact alone there and says why (production refuses to start: config rule).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentRequiredHeader } from '@x402/core/http'
import { generatePrivateKey } from 'viem/accounts'
import { anvilAccount, startChain, type Chain } from '../../../support/chain'
import { keyOf } from '../../../support/facilitator'
import { startServer, type StartedServer } from '../../../support/server'

const SLOW = 60_000
let chain: Chain
let server: StartedServer

beforeAll(async () => {
  chain = await startChain() // no escrow placed
  server = await startServer({
    PAYMENT_MODE: 'self',
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    RECONCILE_SECONDS: '0',
    BATCH_NETWORKS: 'base-sepolia',
    BATCH_RECEIVER_AUTHORIZER_KEY: generatePrivateKey(),
  })
}, SLOW)

afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

test(
  'no escrow on the chain: the 402 offers exact alone, and the log says batch-settlement is not offered there',
  async () => {
    const unpaid = await fetch(`${server.url}/v1/market-data/flights/months`)
    const required = decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!)
    expect(required.accepts.map((accept) => accept.scheme)).toEqual(['exact'])
    expect(server.output()).toContain('batch-settlement not offered where its escrow is missing')
    expect(server.output()).not.toContain('batch:   x402 batch-settlement')
  },
  SLOW,
)
