import { exampleCall, type Method, type RouteSpec } from '../../catalog'

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

/** One request per method of the route: GET with a query string, POST with the same fields as a JSON body. */
export function exampleRequests(route: RouteSpec, baseUrl: string): ExampleRequest[] {
  const { path, input } = exampleCall(route)
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
