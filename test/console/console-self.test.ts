/**
 * The console's health in self mode (issue 37: each network's RPC): one network's RPC is a real chain
 * (anvil, as Base Sepolia), the other's refuses connections. The console says which answers, and why the
 * other does not, naming only the endpoint's origin.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { anvilAccount, startChain, type Chain } from '../../support/chain'
import { keyOf } from '../../support/facilitator'
import { freePort } from '../../support/ports'
import { startServer, type StartedServer } from '../../support/server'
import { consoleFigures, TOKEN } from './support'

let chain: Chain
let server: StartedServer
let closed: number

beforeAll(async () => {
  chain = await startChain()
  closed = await freePort() // nothing listens there
  server = await startServer({
    PAYMENT_MODE: 'self',
    PAYMENT_NETWORKS: 'base-sepolia,polygon-amoy',
    X402_RPC_URL: chain.rpcUrl,
    X402_RPC_URL_POLYGON_AMOY: `http://127.0.0.1:${closed}/secret-path-token`,
    X402_SETTLER_PRIVATE_KEY: keyOf(anvilAccount(2)),
    RECONCILE_SECONDS: '0',
    METRICS_TOKEN: TOKEN,
    WARM_UP_SAMPLE_ANSWERS: 'false',
  })
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

test("each network's RPC: the one that answers with its chain's id, and the one that does not, with why", async () => {
  const networks = (await consoleFigures(server.url)).health.networks as { network: string; reachable: boolean; error?: string }[]
  expect(networks.map((n) => [n.network, n.reachable])).toEqual([
    ['base-sepolia', true],
    ['polygon-amoy', false],
  ])
  expect(networks[1]!.error).toStartWith(`polygon-amoy RPC http://127.0.0.1:${closed}/…: `) // the path hidden
  expect(JSON.stringify(networks)).not.toContain('secret-path-token')
  const page = await (await fetch(`${server.url}/console`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/html' } })).text()
  expect(page).toMatch(/base-sepolia: <span class="ok">answers \(\d+ ms\)<\/span>/)
  expect(page).toContain('polygon-amoy: <span class="bad">does not answer</span>')
})
