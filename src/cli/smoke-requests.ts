import type { TSchema } from '@sinclair/typebox'
import type { RouteSpec } from '../catalog'
import type { Method } from '../catalog/types'

/** One valid request to a catalog route, built from the catalog's parameter examples. */
export interface ExampleRequest {
  route: RouteSpec
  method: Method
  /** The route path with its path parameters filled in. */
  path: string
  url: string
  /** Required query (GET) or body (POST) fields. */
  input: Record<string, unknown>
}

/** The schema's first example, else its default: what the catalog documents as a valid value. */
function sample(route: RouteSpec, name: string, schema: TSchema): unknown {
  const value = (schema.examples as unknown[] | undefined)?.[0] ?? schema.default
  if (value === undefined) throw new Error(`catalog route ${route.id}: required parameter "${name}" has no example or default`)
  return value
}

/** Required properties only: optional ones have defaults on the server, and fewer fields mean fewer ways to be wrong. */
function requiredSamples(route: RouteSpec, object: { properties: Record<string, TSchema>; required?: string[] }): Record<string, unknown> {
  const required = new Set(object.required ?? [])
  return Object.fromEntries(
    Object.entries(object.properties)
      .filter(([name]) => required.has(name))
      .map(([name, schema]) => [name, sample(route, name, schema)]),
  )
}

/** One request per method of the route: GET with a query string, POST with the same fields as a JSON body. */
export function exampleRequests(route: RouteSpec, baseUrl: string): ExampleRequest[] {
  const params = route.params ? requiredSamples(route, route.params) : {}
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`catalog route ${route.id}: path parameter "${name}" has no schema`)
    return encodeURIComponent(String(params[name]))
  })
  const input = requiredSamples(route, route.query)
  const origin = baseUrl.replace(/\/+$/, '')
  return route.methods.map((method) => {
    const query = method === 'GET' ? new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString() : ''
    return { route, method, path, url: `${origin}${path}${query ? `?${query}` : ''}`, input }
  })
}

/** The fetch arguments of a request, with extra headers (the payment proof). */
export function requestInit(req: ExampleRequest, headers: Record<string, string>, signal: AbortSignal): RequestInit {
  const init: RequestInit = { method: req.method, headers: { accept: 'application/json', ...headers }, signal }
  if (req.method === 'POST') {
    init.headers = { ...init.headers, 'content-type': 'application/json' }
    init.body = JSON.stringify(req.input)
  }
  return init
}
