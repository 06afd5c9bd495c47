/**
 * /ready tells the truth about what a paid request needs: 503 while the ledger cannot be written (a real
 * full disk: a small tmpfs) or the facilitator has not answered for X402_FACILITATOR_OUTAGE_SECONDS (a
 * real facilitator on anvil, stopped and started again on its port), 200 again once it recovers; the
 * metrics say which.
 */
import { noteSkipped } from '../../support/required-tool'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { createPayer } from '../../support/payer'
import { startChainAndFacilitator, type ChainAndFacilitator } from '../../support/chain-and-facilitator'
import { startServer, type StartedServer } from '../../support/server'
import { until } from '../../support/until'

const route = routeById.get('flights.summary')!
const path = `${route.path}?destination=Tokyo`

/** A paid request from a fresh wallet (unfunded: the facilitator refuses it; the service remembers a refused payer for a while). */
async function pay(server: StartedServer): Promise<{ status: number; code?: string }> {
  const proof = await createPayer().proof({ value: usdToAtomic(route.priceUsd) })
  const res = await fetch(`${server.url}${path}`, { headers: { 'x402-payment': proof } })
  const body = (await res.json()) as { error?: { code: string } }
  return { status: res.status, ...(body.error ? { code: body.error.code } : {}) }
}

const ready = async (server: StartedServer) => {
  const res = await fetch(`${server.url}/ready`)
  const body = (await res.json()) as {
    data?: { checks: Record<string, unknown> }
    error?: { code: string; details: Record<string, unknown> }
  }
  return { status: res.status, code: body.error?.code, checks: body.data?.checks ?? body.error?.details ?? {} }
}

const gauge = async (server: StartedServer, name: string) =>
  Number((await (await fetch(`${server.url}/metrics`)).text()).match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1])

describe('the facilitator stops answering, then answers again', () => {
  let onchain: ChainAndFacilitator
  let server: StartedServer
  beforeAll(async () => {
    onchain = await startChainAndFacilitator()
    server = await startServer({ ...onchain.serviceEnv, X402_FACILITATOR_OUTAGE_SECONDS: '1', X402_FACILITATOR_TIMEOUT_SECONDS: '2' })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await onchain?.stop()
  })

  test('/ready: 200 while it answers, 503 facilitator_unavailable after the outage time, 200 once it is back', async () => {
    // An unfunded payer: the facilitator answers (a refusal), so it is reachable.
    expect(await pay(server)).toEqual({ status: 402, code: 'payment_invalid' })
    expect(await ready(server)).toMatchObject({ status: 200, checks: { facilitator: { reachable: true } } })
    expect(await gauge(server, 'x402_facilitator_reachable')).toBe(1)

    await onchain.facilitator.stop()
    expect(await pay(server)).toEqual({ status: 502, code: 'facilitator_unavailable' })
    expect(await gauge(server, 'x402_facilitator_reachable')).toBe(0)
    const down = await until('/ready to say the facilitator is down', async () => {
      const r = await ready(server)
      return r.status === 503 ? r : undefined
    })
    expect(down).toMatchObject({ code: 'facilitator_unavailable', checks: { facilitator: { reachable: false } } })

    await onchain.restartFacilitator()
    // /ready asks /supported itself (nothing else calls the facilitator while the balancer holds traffic back).
    const back = await until('/ready to see the facilitator again', async () => {
      const r = await ready(server)
      return r.status === 200 ? r : undefined
    })
    expect(back.checks).toMatchObject({ facilitator: { reachable: true } })
    expect(await gauge(server, 'x402_facilitator_reachable')).toBe(1)
    expect(await pay(server)).toEqual({ status: 402, code: 'payment_invalid' })
  }, 60_000)
})

/** A tmpfs of `mb` MiB, or null when this machine does not let us mount one (not root). */
function smallDisk(mb: number): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'full-disk-'))
  const mounted = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir])
  if (mounted.exitCode === 0) return dir
  rmSync(dir, { recursive: true, force: true })
  return null
}

const disk = smallDisk(4)
if (!disk) noteSkipped('test/payments/readiness-parts.test.ts', 'a tmpfs mount (root)', 'the full-disk suite fills a small tmpfs')

describe.skipIf(!disk)('the ledger disk fills up, then has room again', () => {
  let server: StartedServer
  const filler = join(disk ?? '', 'filler')
  beforeAll(async () => {
    server = await startServer({ LEDGER_PATH: join(disk!, 'ledger.sqlite') })
  })
  afterAll(async () => {
    await server?.stop()
    Bun.spawnSync(['umount', disk!])
    rmSync(disk!, { recursive: true, force: true })
  })

  test('paid requests are refused with 503 ledger_unavailable, /ready is 503 until there is room, then both recover', async () => {
    expect(await pay(server)).toMatchObject({ status: 200 })
    // Fill every free byte of the disk.
    const block = Buffer.alloc(64 * 1024, 1)
    let written = 0
    try {
      for (;;) {
        writeFileSync(filler, block, { flag: 'a' })
        written += block.length
      }
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
    }
    expect(written).toBeGreaterThan(0)
    // The ledger's write-ahead log may still hold a few commits' room; the first commit that needs more is refused.
    const refused = await until('a paid request refused for the full disk', async () => {
      const r = await pay(server)
      return r.status === 503 ? r : undefined
    })
    expect(refused).toEqual({ status: 503, code: 'ledger_unavailable' })
    expect(await ready(server)).toMatchObject({ status: 503, code: 'ledger_unavailable', checks: { ledger: { writable: false } } })
    expect(await gauge(server, 'ledger_writable')).toBe(0)

    rmSync(filler)
    expect(await ready(server)).toMatchObject({ status: 200, checks: { ledger: { writable: true } } })
    expect(await gauge(server, 'ledger_writable')).toBe(1)
    expect(await pay(server)).toMatchObject({ status: 200 })
  }, 60_000)
})
