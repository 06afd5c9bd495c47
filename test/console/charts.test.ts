/**
 * The console's time chart names each period (a day, a month) under its first bar. Two names that would
 * overlap are never both drawn: seen late in the evening, the 48 hours start two bars before midnight.
 */
import { expect, test } from 'bun:test'
import { barChart, type TimeBar } from '../../src/http/console/charts'

/** 48 hourly bars from `firstHour`, each day named at its first hour. */
function hours(firstHour: number): TimeBar[] {
  return Array.from({ length: 48 }, (_, i) => {
    const hour = (firstHour + i) % 24
    const day = Math.floor((firstHour + i) / 24)
    return {
      label: `day ${day} ${hour}:00`,
      value: 1,
      text: '1',
      tick: String(hour),
      major: hour % 6 === 0,
      ...(i === 0 || hour === 0 ? { period: `day ${day}` } : {}),
    }
  })
}
const periodsOf = (html: string) => [...html.matchAll(/<text class="period[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])

test('a day that starts within the first sixth of the chart leaves out the name of the day before; later, both are named', () => {
  expect(periodsOf(barChart('c', 'Hours', hours(22), ['Hour', 'Payments']))).toEqual(['day 1', 'day 2'])
  expect(periodsOf(barChart('c', 'Hours', hours(10), ['Hour', 'Payments']))).toEqual(['day 0', 'day 1', 'day 2'])
})
