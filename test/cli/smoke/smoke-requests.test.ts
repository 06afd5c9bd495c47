import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { CATALOG } from '../../../src/catalog'
import { exampleRequests } from '../../../src/cli/smoke/smoke-requests'

describe('smoke example requests', () => {
  test('every catalog route gets one request per method, with required parameters its own schemas accept', () => {
    for (const route of CATALOG) {
      const requests = exampleRequests(route, 'http://127.0.0.1:3000/')
      expect(requests.map((r) => r.method)).toEqual([...route.methods])
      for (const req of requests) {
        expect(Value.Check(route.query, req.input)).toBe(true)
        for (const name of route.query.required ?? []) expect(req.input).toHaveProperty(name)
        expect(req.path).not.toContain(':')
        const url = new URL(req.url)
        expect(url.origin + url.pathname).toBe(`http://127.0.0.1:3000${req.path}`)
        if (req.method === 'GET')
          expect(Object.fromEntries(url.searchParams)).toEqual(
            Object.fromEntries(Object.entries(req.input).map(([k, v]) => [k, String(v)])),
          )
        else expect(url.search).toBe('')
      }
    }
  })

  test('path parameters come from the catalog examples and satisfy their schemas', () => {
    const route = CATALOG.find((r) => r.id === 'signals.brands.snapshot')!
    const [req] = exampleRequests(route, 'http://h')
    const slug = req!.path.split('/')[4]!
    expect(Value.Check(route.params!, { brand_slug: slug })).toBe(true)
    expect(req!.path).toBe(`/v1/signals/brands/${slug}/snapshot`)
  })
})
