/** Vendor dates: ISO with and without a zone, epochs, and the relative forms Chinese and English pages show. */
import { describe, expect, test } from 'bun:test'
import { parseVendorDate } from '../../../src/intelligence/providers/dates'

// 2026-11-25 10:30 UTC = 18:30 in Beijing.
const now = Date.parse('2026-11-25T10:30:00Z')
const cst = { now, zone: 480 }
const utc = { now, zone: 0 }
const at = (v: unknown, o = cst) => parseVendorDate(v, o)?.toISOString() ?? null

describe('absolute dates', () => {
  test('ISO 8601 with a zone is that instant, whatever the vendor zone', () => {
    expect(at('2026-11-02T08:00:00+08:00')).toBe('2026-11-02T00:00:00.000Z')
    expect(at('2026-11-02T08:00:00Z', cst)).toBe('2026-11-02T08:00:00.000Z')
    expect(at('2026-11-02T08:00:00.123456+0800')).toBe('2026-11-02T00:00:00.123Z')
  })

  test('ISO without a zone is read in the vendor’s documented zone (SearXNG UTC, Bocha China time)', () => {
    expect(at('2026-11-02T08:00:00', utc)).toBe('2026-11-02T08:00:00.000Z')
    expect(at('2026-11-02T08:00:00', cst)).toBe('2026-11-02T00:00:00.000Z')
    expect(at('2026-11-02 08:00', cst)).toBe('2026-11-02T00:00:00.000Z')
    expect(at('2026-11-02', cst)).toBe('2026-11-01T16:00:00.000Z')
    expect(at('2026年11月2日', cst)).toBe('2026-11-01T16:00:00.000Z')
    expect(at('2026/11/02 12:00', utc)).toBe('2026-11-02T12:00:00.000Z')
  })

  test('epoch seconds and milliseconds, as numbers or digit strings', () => {
    expect(at(1_793_000_000)).toBe(new Date(1_793_000_000_000).toISOString())
    expect(at('1793000000')).toBe(new Date(1_793_000_000_000).toISOString())
    expect(at(1_793_000_000_123)).toBe(new Date(1_793_000_000_123).toISOString())
  })

  test('a date in words', () => {
    expect(at('November 2, 2026')).toBe('2026-11-02T00:00:00.000Z')
  })
})

describe('relative dates count back from the time of the call', () => {
  const ago = (ms: number) => new Date(now - ms).toISOString()
  test.each([
    ['刚刚', 0],
    ['30秒前', 30_000],
    ['5分钟前', 5 * 60_000],
    ['2小时前', 2 * 3_600_000],
    ['3天前', 3 * 86_400_000],
    ['编辑于 3天前', 3 * 86_400_000],
    ['2周前', 14 * 86_400_000],
    ['1个月前', 30 * 86_400_000],
    ['2 hours ago', 2 * 3_600_000],
    ['3 days ago', 3 * 86_400_000],
    ['a week ago', 7 * 86_400_000],
  ] as const)('%s', (text, ms) => {
    expect(at(text)).toBe(ago(ms))
  })

  test('昨天, 前天 and 今天 with a time of day are days in the vendor’s zone', () => {
    // Beijing midnight of 2026-11-25 is 2026-11-24T16:00Z.
    expect(at('昨天 12:30')).toBe('2026-11-24T04:30:00.000Z')
    expect(at('前天')).toBe('2026-11-22T16:00:00.000Z')
    expect(at('今天 09:00')).toBe('2026-11-25T01:00:00.000Z')
    expect(at('yesterday')).toBe('2026-11-23T16:00:00.000Z')
  })

  test('a month and day without a year is this year, or last year when that would be ahead', () => {
    expect(at('11-02')).toBe('2026-11-01T16:00:00.000Z')
    expect(at('12-31')).toBe('2025-12-30T16:00:00.000Z')
    expect(at('3月5日')).toBe('2026-03-04T16:00:00.000Z')
  })
})

describe('what cannot be read is undated, never guessed', () => {
  test('missing, vague, impossible or not a date', () => {
    for (const v of [null, undefined, '', 'recently', '很久以前', 'soon', '2026-13-45', 0, -5, {}, [], 'N/A', true])
      expect(at(v)).toBeNull()
  })
})
