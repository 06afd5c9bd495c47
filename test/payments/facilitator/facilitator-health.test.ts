/** When /ready says the facilitator is down, and how it learns that it is back (facilitator-health.ts). */
import { describe, expect, test } from 'bun:test'
import { FacilitatorHealth } from '../../../src/payments/facilitator/facilitator-health'

function clocked(probe: () => Promise<unknown>) {
  let now = 1_000_000
  const health = new FacilitatorHealth(probe, 30_000, () => now)
  return { health, advance: (ms: number) => (now += ms) }
}

describe('FacilitatorHealth', () => {
  test('a failure is not an outage until calls have gone unanswered for the outage time; any answer ends it', async () => {
    let probes = 0
    const { health, advance } = clocked(async () => probes++)
    expect(await health.check()).toEqual({ reachable: true })
    health.unreachable('connect ECONNREFUSED 127.0.0.1:9')
    advance(29_000)
    expect(await health.check()).toMatchObject({ reachable: false, outage: false, error: 'connect ECONNREFUSED 127.0.0.1:9' })
    expect(probes).toBe(0) // within the grace nothing is asked
    health.unreachable('again') // the outage still counts from the first failure
    advance(1_000)
    health.reached()
    expect(await health.check()).toEqual({ reachable: true })
  })

  test('during an outage /ready asks /supported: still down stays an outage, an answer ends it', async () => {
    let up = false
    let probes = 0
    const { health, advance } = clocked(async () => {
      probes++
      if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:9')
      return { kinds: [] }
    })
    health.unreachable('verify: connect ECONNREFUSED')
    advance(31_000)
    expect(await health.check()).toMatchObject({ reachable: false, outage: true, error: '/supported: connect ECONNREFUSED 127.0.0.1:9' })
    expect(probes).toBe(1)
    // Asked again at most every 5 s, however often /ready is polled.
    advance(1_000)
    await health.check()
    await health.check()
    expect(probes).toBe(1)
    up = true
    advance(5_000)
    expect(await health.check()).toEqual({ reachable: true })
    expect(probes).toBe(2)
  })

  test('a facilitator whose /supported answers while payment calls fail: after a probe, the next failed call resumes the outage at once', async () => {
    let probes = 0
    const { health, advance } = clocked(async () => probes++)
    health.unreachable('verify: 500 Internal Server Error')
    advance(31_000)
    expect(await health.check()).toEqual({ reachable: true }) // the probe answered: traffic may test it again
    expect(probes).toBe(1)
    health.unreachable('verify: 500 Internal Server Error')
    // No new 30 s of grace: the payment calls have not been answered since the first failure.
    expect(await health.check()).toMatchObject({ reachable: false, outage: true, error: 'verify: 500 Internal Server Error' })
    health.reached() // a payment call answered: it is over
    health.unreachable('verify: timeout')
    expect(await health.check()).toMatchObject({ reachable: false, outage: false })
  })

  test('long after a probe cleared an outage (a quiet service), a payment call that fails starts a new outage with its grace', async () => {
    const { health, advance } = clocked(async () => ({ kinds: [] }))
    health.unreachable('verify: 500 Internal Server Error')
    advance(31_000)
    expect(await health.check()).toEqual({ reachable: true }) // the probe answered
    advance(3_600_000) // an hour without a payment call
    health.unreachable('verify: timeout')
    expect(await health.check()).toMatchObject({ reachable: false, outage: false, sinceMs: 0 })
  })

  test('concurrent /ready calls share one probe', async () => {
    let probes = 0
    let answer!: () => void
    const { health, advance } = clocked(() => {
      probes++
      return new Promise<void>((resolve) => (answer = resolve))
    })
    health.unreachable('timeout')
    advance(40_000)
    const both = Promise.all([health.check(), health.check()])
    answer()
    expect(await both).toEqual([{ reachable: true }, { reachable: true }])
    expect(probes).toBe(1)
  })
})
