import { type TObject, type TSchema, Type as t } from '@sinclair/typebox'
import type { RouteSpec } from './types'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** A catalog schema as plain JSON Schema for documents other programs read (discovery, MCP tools): TypeBox's symbol keys dropped. */
export const plainSchema = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema))

/** Everything a caller supplies, path parameters and query (or body) fields, as one JSON Schema object. */
export function routeInputSchema(route: RouteSpec): {
  type: 'object'
  properties: Record<string, Json>
  required: string[]
  additionalProperties: false
} {
  const parts = [route.params, route.query].filter((p) => p !== undefined)
  const properties: Record<string, Json> = {}
  const required: string[] = []
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part.properties)) properties[name] = plainSchema(schema as TSchema)
    required.push(...(part.required ?? []))
  }
  return { type: 'object', properties, required, additionalProperties: false }
}

/** A paid answer: the success envelope around the route's data (OpenAPI's 200 and MCP's `outputSchema` say it alike). */
export function successEnvelope(route: RouteSpec): TObject {
  return t.Object({
    success: t.Literal(true),
    data: route.data,
    meta: t.Object({
      request_id: t.String(),
      generated_at: t.String(),
      pipeline_version: t.String(),
      cache_status: t.Optional(t.Union([t.Literal('hit'), t.Literal('miss')])),
      artifact_path: t.String({ description: 'GET it again, free, for 24 h' }),
    }),
    pricing: t.Object({ amount_usd: t.Literal(route.priceUsd), payment_status: t.Literal('paid') }),
  })
}
