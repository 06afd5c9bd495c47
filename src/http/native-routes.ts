import { createBunRouteHandler } from 'elysia/adapter/bun/compose'
import type { AnyElysia } from 'elysia'
import type { UnpaidAnswers } from './unpaid-answers'

type Handler = (request: Request) => Response | Promise<Response>
export type NativeRoutes = Record<string, Record<string, Handler>>

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The app's routes as Bun's native route table, as Elysia's own `listen` builds it: Bun matches the path
 * in native code and calls the route's compiled handler, instead of every request going through the
 * app's fetch and its JavaScript router (about a fifth of the 402 path). `wrap` sees every handler, so
 * the shutdown deadline still tracks each request. Routes Bun cannot take (`all`, wildcards) stay on fetch.
 */
export function nativeRoutes(app: AnyElysia, wrap: (handler: Handler) => Handler, unpaid?: UnpaidAnswers): NativeRoutes {
  const routes: NativeRoutes = {}
  for (const route of app.router.history) {
    if (typeof route.handler !== 'function' || !METHODS.has(route.method) || route.path.endsWith('*')) continue
    let compiled: Handler | undefined
    const full: Handler = (request) => (compiled ??= createBunRouteHandler(app, route) as Handler)(request)
    // A paid route's remembered unpaid 402 is answered before the framework parses anything.
    const ahead = route.method === 'GET' ? unpaid?.ahead(route.path) : undefined
    const handler = wrap(ahead ? (request) => ahead(request) ?? full(request) : full)
    const path = encodeURI(route.path)
    routes[path] ??= {}
    routes[path][route.method] ??= handler
  }
  return routes
}
