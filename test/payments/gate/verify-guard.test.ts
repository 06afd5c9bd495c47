/** What junk proofs may cost: the verification budget of new payers, the served payers it never holds back, remembered refusals. */
import { describe, expect, test } from 'bun:test'
import { ApiError } from '../../../src/core/errors'
import { CLIENT_SHARE, REFUSAL_MEMORY_MS, VerifyGuard, type VerifySlot } from '../../../src/payments/gate/verify-guard'

function clocked(limits = { concurrency: 4, newPayersPerSecond: 2 }) {
  let now = 1_000_000
  const guard = new VerifyGuard(limits, () => now)
  const refuse = (reason: string, message: string) => new ApiError('payment_invalid', message, { reason })
  return { guard, admit: (payer: string, proven = true) => guard.admit(payer, proven, refuse), advance: (ms: number) => (now += ms) }
}

const code = (x: VerifySlot | ApiError) => (x instanceof ApiError ? x.code : 'admitted')

describe('VerifyGuard', () => {
  test(`one client address takes at most ${CLIENT_SHARE * 100}% of the new payers' rate: the rest stays for new buyers elsewhere`, () => {
    let now = 1_000_000
    const guard = new VerifyGuard({ concurrency: 100, newPayersPerSecond: 8 }, () => now)
    const refuse = (reason: string, message: string) => new ApiError('payment_invalid', message, { reason })
    const from = (client: string, payer: string) => code(guard.admit(payer, true, refuse, () => client))
    // A first burst (the whole budget), then its share: 2 a second, however many it sends.
    const flood = () => Array.from({ length: 50 }, (_, i) => from('127.0.0.1', `0xjunk${i}`)).filter((c) => c === 'admitted').length
    expect(flood()).toBe(8)
    now += 1000
    expect(flood()).toBe(2)
    // The other six of the second's eight are for new buyers elsewhere, one address alone taking them all.
    expect(Array.from({ length: 7 }, (_, i) => from('127.0.0.2', `0xhonest${i}`))).toEqual([
      ...Array(6).fill('admitted'),
      'verification_busy',
    ])
    now += 1000
    expect(flood()).toBe(2)
    expect(from('127.0.0.3', '0xlate')).toBe('admitted')
  })

  test('new payers share a rate of verification calls; past it, 503 verification_busy with Retry-After', () => {
    const { admit, advance } = clocked()
    expect([admit('0xa1'), admit('0xa2'), admit('0xa3')].map(code)).toEqual(['admitted', 'admitted', 'verification_busy'])
    const busy = admit('0xa4') as ApiError
    expect([busy.status, busy.retryAfterSeconds]).toEqual([503, 1])
    advance(500) // half a second: one more token
    expect(code(admit('0xa5'))).toBe('admitted')
    expect(code(admit('0xa6'))).toBe('verification_busy')
  })

  test('a payer already served is not held back by the new payers budget, only by the calls in flight', () => {
    const { guard, admit } = clocked({ concurrency: 3, newPayersPerSecond: 1 })
    guard.served('0xHONEST', true)
    const flood = admit('0xjunk1') as VerifySlot
    expect(code(admit('0xjunk2'))).toBe('verification_busy')
    const honest = [admit('0xhonest'), admit('0xHonest')]
    expect(honest.map(code)).toEqual(['admitted', 'admitted'])
    // Three in flight: the overall bound holds for everyone.
    expect(code(admit('0xhonest'))).toBe('verification_busy')
    flood.release()
    flood.release() // a second release changes nothing
    expect(code(admit('0xhonest'))).toBe('admitted')
    expect(code(admit('0xhonest'))).toBe('verification_busy')
  })

  test('a lasting refusal (no funds) is answered from memory for a while; refusals of the proof itself are not', () => {
    const { guard, admit, advance } = clocked({ concurrency: 10, newPayersPerSecond: 100 })
    guard.refused('0xEMPTY', true, { ok: false, reason: 'insufficient_funds', message: 'The payer has no USDC.' })
    guard.refused('0xbadsig', true, { ok: false, reason: 'invalid_exact_evm_payload_signature', message: 'Bad signature.' })
    guard.refused('0xdown', true, { ok: false, unavailable: true, reason: 'facilitator_unreachable', message: 'down' })
    guard.refused('0xwrongnet', true, { ok: false, reason: 'invalid_network', message: 'Wrong network.' })
    const remembered = admit('0xempty') as ApiError
    expect([remembered.code, remembered.details]).toEqual(['payment_invalid', { reason: 'insufficient_funds' }])
    expect(remembered.message).toContain('The payer has no USDC.')
    expect([admit('0xbadsig'), admit('0xdown'), admit('0xwrongnet')].map(code)).toEqual(['admitted', 'admitted', 'admitted'])
    advance(REFUSAL_MEMORY_MS)
    expect(code(admit('0xempty'))).toBe('admitted')
  })

  test('a payer served after a refusal is forgotten as refused (it topped up)', () => {
    const { guard, admit } = clocked()
    guard.refused('0xtopup', true, { ok: false, reason: 'insufficient_funds', message: 'No funds.' })
    guard.served('0xtopup', true)
    expect(code(admit('0xtopup'))).toBe('admitted')
  })
})

test('a payer named by a contract signature (not proven by ECDSA) is never known and never remembered as refused', () => {
  const { guard, admit } = clocked({ concurrency: 10, newPayersPerSecond: 1 })
  guard.served('0xvictim', true)
  guard.refused('0xvictim', false, { ok: false, reason: 'insufficient_funds', message: 'No funds.' })
  expect(code(admit('0xvictim'))).toBe('admitted') // the forged refusal was not remembered
  // Claiming to be a known payer does not skip the new payers' budget.
  expect(code(admit('0xvictim', false))).toBe('admitted')
  expect(code(admit('0xvictim', false))).toBe('verification_busy')
  expect(code(admit('0xvictim', true))).toBe('admitted')
})
