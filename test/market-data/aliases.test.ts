/** The alias table: names in English, Chinese, city and airport codes reach the same place, and are one request. */
import { expect, test } from 'bun:test'
import { DESTINATION_ALIASES, placeKey } from '../../src/data/aliases'
import { DESTINATIONS } from '../../src/data/sample-geography'
import { startApi } from '../../support/api-during-tests'
import type { Client } from '../../support/paying-client'
import { expectUnknownName } from './support'

let api: Client
startApi((client) => (api = client))

test.each(['Tokyo', 'tokyo', '东京', 'TYO', 'NRT', 'hnd', '  TOKYO '])('flights summary: %p is Tokyo', async (name) => {
  const data = await api.data('flights.summary', { destination: name, month: '2026-10' })
  expect(data.destination).toBe('Tokyo')
})

test.each(['Japan', '日本', 'JP', 'jp'])('spend summary: %p is Japan', async (name) => {
  const data = await api.data('spend.summary', { country: name, month: '2026-10' })
  expect(data.country).toBe('Japan')
})

test('aliases of one place are one request: the same answer, stored once per version', async () => {
  const a = await api.paid('flights.summary', { destination: '东京', month: '2026-10' })
  const b = await api.paid('flights.summary', { destination: 'NRT', month: '2026-10' })
  expect(b.body.data).toEqual(a.body.data)
  expect(b.body.meta.cache_status).toBe('hit')
})

test('an aggregate of aliases of the same city counts it once', async () => {
  const data = await api.data('flights.aggregate', { destinations: '东京,NRT,Osaka,KIX', label: 'Tokyo and Osaka' })
  expect(data.destinations).toEqual(['Tokyo', 'Osaka'])
})

test('every alias in the table is unambiguous: no spelling names two destinations', () => {
  const owner = new Map<string, string>()
  for (const d of DESTINATIONS) {
    for (const name of DESTINATION_ALIASES.get(d.code)!) {
      const key = placeKey(name)
      expect({ key, code: owner.get(key) ?? d.code }).toEqual({ key, code: d.code })
      owner.set(key, d.code)
    }
  }
})

test('an unknown name is still a free 404 that lists the known destinations', async () => {
  await expectUnknownName(api, 'flights.summary', { destination: '火星' }, 'destination', 'Tokyo')
})
