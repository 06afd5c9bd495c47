import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOG } from '../../src/catalog'
import { usesEvidence } from '../../src/catalog/waits'
import { httpQuery } from '../../src/catalog/table'
import { BASE, testRuntime } from '../../support/runtime'

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
          const names = op.parameters
            .filter((p: { in: string }) => p.in === 'query')
            .map((p: { name: string }) => p.name)
            .sort()
          expect(names).toEqual(Object.keys(httpQuery(route).properties).sort()) // route.query, plus `format` on a table route
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

  test('servers is the public base URL, so the examples are absolute', async () => {
    const doc = await (await rt.get('/openapi/json')).json()
    expect(doc.servers).toEqual([{ url: BASE }])
  })

  test('summaries start with the price (the sidebar cannot wrap it); descriptions state the wait this server really has', async () => {
    const doc = await (await rt.get('/openapi/json')).json()
    const live = await testRuntime({ WEB_SEARCH_URL: 'http://127.0.0.1:9/search' })
    const liveDoc = await (await live.get('/openapi/json')).json()
    live.close()
    for (const route of CATALOG) {
      const op = doc.paths[openapiPath(route.path)].get
      const liveOp = liveDoc.paths[openapiPath(route.path)].get
      expect(op.summary).toBe(`USD ${route.priceUsd} · ${route.summary}`)
      if (!usesEvidence(route)) {
        expect(op.description).toContain('Typical wait: usually under a second (DuckDB over the local datasets).')
        expect(liveOp.description).toBe(op.description)
      } else {
        expect(op.description).toContain('Typical wait: usually under a second on this server: no live provider is configured')
        expect(liveOp.description).toContain(
          `Typical wait: about ${route.typicalWaitSeconds} s: the China evidence is searched at the live providers`,
        )
      }
    }
    // The wrappers follow their legs: demand reads datasets only, visibility and the KOL shortlist search evidence.
    expect(
      CATALOG.filter(usesEvidence)
        .map((r) => r.id)
        .filter((id) => id.startsWith('capabilities.')),
    ).toEqual(['capabilities.visibility', 'capabilities.kol_shortlist'])
  })

  test('readable for people and agents: every catalog parameter has a real example, whole numbers are integers, error codes are code', async () => {
    const doc = await (await rt.get('/openapi/json')).json()
    for (const route of CATALOG) {
      const op = doc.paths[openapiPath(route.path)].get ?? doc.paths[openapiPath(route.path)].post
      for (const parameter of op.parameters.filter((p: { in: string }) => p.in !== 'header')) {
        // The example is one the API accepts: the catalog's, never a placeholder.
        expect({ route: route.id, name: parameter.name, example: parameter.example }).toEqual({
          route: route.id,
          name: parameter.name,
          example: expect.anything(),
        })
        expect(parameter.schema.anyOf).toBeUndefined()
      }
      for (const [status, response] of Object.entries<{ description: string }>(op.responses))
        if (status !== '200') expect(response.description.replace(/`[^`]*`/g, '')).not.toMatch(/[a-z]_[a-z]/)
    }
    const limit = doc.paths['/v1/signals/topics/rankings'].get.parameters.find((p: { name: string }) => p.name === 'limit')
    expect(limit).toMatchObject({ example: 20, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
    const format = doc.paths['/v1/market-data/flights/trend'].get.parameters.find((p: { name: string }) => p.name === 'format')
    expect(format).toMatchObject({
      example: 'json',
      schema: { enum: ['json', 'csv', 'arrow'], description: expect.stringContaining('Answer format') },
    })
    // The examples are valid calls: the catalog's example of a route answers its 402, not a 400.
    const trend = doc.paths['/v1/market-data/flights/trend'].get.parameters
    const query = new URLSearchParams(
      trend.filter((p: { in: string }) => p.in === 'query').map((p: { name: string; example: unknown }) => [p.name, String(p.example)]),
    )
    expect((await rt.get(`/v1/market-data/flights/trend?${query}`)).status).toBe(402)
  })

  test('the docs UI is configured to call no other host', async () => {
    const html = await (await rt.get('/openapi')).text()
    const config = JSON.parse(/data-configuration='([^']*)'/.exec(html)![1]!)
    expect(config).toMatchObject({
      cdn: '/openapi/assets/scalar.js',
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      proxyUrl: '',
      telemetry: false,
      favicon: '/favicon.svg',
    })
  })
})
