/**
 * Every example the catalog documents (OpenAPI `examples`, the smoke command's requests) passes the
 * route's own validation: a free request with it is answered 402 (payment required), never a 400/404.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { CATALOG, type RouteSpec } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { implementedRouteIds } from '../../src/composition/handler-map'
import { Client } from '../../support/paying-client'

let api: Client
beforeAll(async () => {
  api = await Client.start()
})
afterAll(() => api?.close())

/** Every documented example of a schema's optional properties. */
const optionalExamples = (object: { properties: Record<string, TSchema>; required?: string[] }) =>
  Object.entries(object.properties)
    .filter(([name, schema]) => !(object.required ?? []).includes(name) && (schema.examples as unknown[] | undefined)?.length)
    .map(([name, schema]) => [name, (schema.examples as unknown[])[0]] as const)

async function free(route: RouteSpec, input: Record<string, unknown>) {
  const { path } = exampleCall(route)
  const qs = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString()
  return api.rt.app.handle(new Request(`http://localhost:3000${path}${qs ? `?${qs}` : ''}`))
}

const served = implementedRouteIds()
const routes = CATALOG.filter((r) => served.has(r.id))

describe('catalog examples', () => {
  test.each(routes.map((r) => [r.id, r] as const))(
    '%s: the required examples, then each optional example and all of them together, ask for payment',
    async (_, route) => {
      const { input } = exampleCall(route)
      const optional = optionalExamples(route.query as never)
      for (const extra of [[], ...optional.map((o) => [o]), optional]) {
        const res = await free(route, { ...input, ...Object.fromEntries(extra) })
        expect([route.id, extra, res.status, res.status === 402 ? '' : await res.text()]).toEqual([route.id, extra, 402, ''])
      }
    },
  )
})
