/** What buyers read about the China routes: every data field described, errors and payment in OpenAPI. */
import { describe, expect, test } from 'bun:test'
import { CATALOG } from '../../src/catalog'
import { ERROR_CODES } from '../../src/core/errors'
import { startApi } from '../../support/api-during-tests'
import type { Client as Api, Query } from '../../support/paying-client'

const CHINA = CATALOG.filter((r) => r.family === 'china')

/** Paths of object properties (and array items' properties) that carry no description. */
function undescribed(schema: any, path = 'data'): string[] {
  const out: string[] = []
  if (schema?.properties) {
    for (const [k, p] of Object.entries<any>(schema.properties)) {
      if (!p.description) out.push(`${path}.${k}`)
      out.push(...undescribed(p, `${path}.${k}`))
    }
  }
  if (schema?.items) out.push(...undescribed(schema.items, `${path}[]`))
  for (const branch of [...(schema?.anyOf ?? []), ...(schema?.allOf ?? [])]) out.push(...undescribed(branch, path))
  return out
}

let api: Api
startApi((client) => (api = client))

describe('China route documentation', () => {
  test.each(CHINA.map((r) => r.id))('%s describes every field of its data', (id) => {
    const r = CHINA.find((x) => x.id === id)!
    expect(undescribed(r.data)).toEqual([])
  })

  test('OpenAPI lists the provider errors (502, 504) for the China routes and not for dataset routes', async () => {
    const doc = await (await api.rt.get('/openapi/json')).json()
    for (const r of CHINA)
      expect(Object.keys(doc.paths[r.path].get.responses)).toEqual(expect.arrayContaining(['200', '400', '402', '404', '502', '504']))
    for (const r of CHINA) expect(doc.paths[r.path].get.responses['502'].description).toContain('provider_unavailable')
    const dataset = doc.paths['/v1/market-data/flights/summary'].get.responses
    expect(Object.keys(dataset)).not.toContain('504')
    expect(dataset['502'].description).not.toContain('provider')
  })

  test('every description in OpenAPI, nested ones too, writes an error code as code (`rate_limited`), as the rest of the docs do', async () => {
    const doc = await (await api.rt.get('/openapi/json')).json()
    const codes = Object.keys(ERROR_CODES)
    const bare: string[] = []
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return
      for (const [key, value] of Object.entries(node)) {
        if (key === 'description' && typeof value === 'string') {
          const prose = value.replace(/`[^`]*`/g, '')
          for (const code of codes) if (new RegExp(`(?<![\\w-])${code}(?![\\w-])`).test(prose)) bare.push(`${path}: ${code}`)
        }
        walk(value, `${path}/${key}`)
      }
    }
    walk(doc, '')
    expect(bare).toEqual([])
  })

  test('the China routes are served (no longer 501) and ask for payment first', async () => {
    for (const r of CHINA) {
      const q: Query =
        r.id === 'china.sentiment' ? { entity: '露营' } : r.id === 'china.kols' ? { category: 'outdoor' } : { keyword: '露营' }
      const a = await api.free(r.id, q)
      expect(a.status).toBe(402)
      expect(a.body.error.code).toBe('payment_required')
    }
  })
})
