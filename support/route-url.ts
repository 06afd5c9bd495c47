import { routeById } from '../src/catalog'

export type Query = Record<string, string | number>

/** A catalog route's URL path; a query key named like a path parameter (`:brand_slug`) fills that segment instead. */
export function routeUrl(id: string, query: Query = {}): string {
  const route = routeById.get(id)
  if (!route) throw new Error(`no catalog route ${id}`)
  const rest: Query = { ...query }
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name]
    delete rest[name]
    return encodeURIComponent(String(value))
  })
  const qs = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString()
  return path + (qs ? `?${qs}` : '')
}
