import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOG } from '../../src/catalog'
import { testRuntime } from '../helpers/runtime'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

const openapiPath = (p: string) => p.replace(/:([a-z_]+)/g, '{$1}')

describe('OpenAPI', () => {
  test('/openapi/json documents every catalog route and method with its price and parameters', async () => {
    const doc = await (await rt.get('/openapi/json')).json()
    for (const route of CATALOG) {
      const item = doc.paths[openapiPath(route.path)]
      expect(item).toBeDefined()
      for (const method of route.methods) {
        const op = item[method.toLowerCase()]
        expect(op['x-price-usd']).toBe(route.priceUsd)
        expect(op.summary).toContain(`USD ${route.priceUsd}`)
        if (method === 'GET') {
          const names = op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort()
          expect(names).toEqual(Object.keys(route.query.properties).sort())
        }
        expect(op.parameters.some((p: { name: string; in: string }) => p.name === 'x402-payment' && p.in === 'header')).toBe(true)
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '402', '404']))
      }
    }
  })

  test('the docs UI loads its script from this server, not a CDN', async () => {
    const html = await (await rt.get('/openapi')).text()
    expect(html).toContain('src="/openapi/assets/scalar.js"')
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com|cdnjs/)
    const js = await rt.get('/openapi/assets/scalar.js')
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect((await js.text()).length).toBeGreaterThan(1_000_000)
  })
})
