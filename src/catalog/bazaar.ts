import type { TSchema } from '@sinclair/typebox'
import { exampleCall } from './examples'
import { plainSchema, routeInputSchema } from './json-schema'
import type { RouteSpec } from './types'

/** Service metadata for discovery catalogs (printable ASCII, <= 32 characters, <= 5 tags, as the bazaar spec asks). */
export const SERVICE = { serviceName: 'China Market Intelligence', tags: ['china', 'market-intelligence', 'consumer', 'travel', 'kol'] }

/** Where the service's icon is served (http/pages/favicon.ts), an SVG. */
export const SERVICE_ICON_PATH = '/favicon.svg'

/** What a PaymentRequired's resource says of the service: its name and tags, and its icon's absolute URL when the base is known. */
export type ServiceMetadata = typeof SERVICE & { iconUrl?: string }

/**
 * The service metadata on a server reached at `publicBaseUrl`. The icon is named only on a host a catalogue
 * can fetch: the bazaar spec has them drop an `iconUrl` on localhost or an IP address.
 */
export function serviceMetadata(publicBaseUrl: string): ServiceMetadata {
  const host = new URL(publicBaseUrl).hostname
  const local = host === 'localhost' || host.endsWith('.localhost') || /^[\d.]+$/.test(host) || host.startsWith('[')
  return local ? SERVICE : { ...SERVICE, iconUrl: publicBaseUrl + SERVICE_ICON_PATH }
}

type JsonObject = Record<string, unknown>

/** An MCP tool's name: the catalog id with `_` for `.` (MCP tool names allow letters, digits, `_` and `-`). */
export const toolName = (route: RouteSpec) => route.id.replaceAll('.', '_')

/** Where an MCP tool is sold: the resource its PaymentRequired names (and the gate's requirements are built for). */
export const MCP_TOOL_RESOURCE = 'mcp://tool/'

/** A schema cut to `depth` levels of properties: 402 answers stay small; full schemas are in /.well-known/x402 and OpenAPI. */
function shallow(schema: unknown, depth: number, describe = true): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema
  const node = schema as JsonObject
  const keep = (({ type, description, enum: e, const: c, anyOf }) => ({
    type,
    description: describe ? description : undefined,
    enum: e,
    const: c,
    anyOf,
  }))(node as Record<string, unknown>)
  const out: JsonObject = Object.fromEntries(Object.entries(keep).filter(([, v]) => v !== undefined))
  if (depth > 0 && node.properties) {
    out.properties = Object.fromEntries(Object.entries(node.properties as JsonObject).map(([k, v]) => [k, shallow(v, depth - 1, describe)]))
    if (node.required) out.required = node.required
  }
  if (depth > 0 && node.items) out.items = shallow(node.items, depth - 1, describe)
  if (out.anyOf) {
    const branches = (out.anyOf as unknown[]).map((b) => shallow(b, depth, describe)) as JsonObject[]
    // A choice of constants (TypeBox's union of literals) is written as the shorter, equivalent `enum`.
    const constants = branches.every((b) => 'const' in b && Object.keys(b).every((k) => k === 'const' || k === 'type'))
    if (constants) {
      delete out.anyOf
      Object.assign(out, { type: out.type ?? (branches[0]?.type as string | undefined), enum: branches.map((b) => b.const) })
    } else out.anyOf = branches
  }
  return out
}

/** Query (or body) fields as the x402 v1 `outputSchema.input` lists them: type, required and allowed values. */
function fields(route: RouteSpec): Record<string, JsonObject> {
  const required = new Set(route.query.required ?? [])
  return Object.fromEntries(
    Object.entries(route.query.properties).map(([name, schema]) => {
      const plain = plainSchema(schema as TSchema) as JsonObject
      const values = (plain.anyOf as { const?: unknown }[] | undefined)?.map((b) => b.const).filter((v) => v !== undefined)
      return [
        name,
        {
          type: values?.length ? 'string' : plain.type,
          ...(required.has(name) ? { required: true } : {}),
          ...(values?.length ? { enum: values } : {}),
        },
      ]
    }),
  )
}

/** A route's part built on first use and kept: every 402 (and every refused proof's) carries it. */
function builtOncePerRoute(build: (route: RouteSpec) => JsonObject): (route: RouteSpec) => JsonObject {
  const built = new Map<string, JsonObject>()
  return (route) => {
    let part = built.get(route.id)
    if (!part) built.set(route.id, (part = build(route)))
    return part
  }
}

/**
 * x402 v1 `outputSchema` of a route's payment requirements: how to call it (method, parameters) and the
 * top-level fields of `data`, without descriptions. Every unpaid request carries it, so it stays small;
 * the described, complete schemas are in /.well-known/x402 and OpenAPI. x402-fetch refuses `null` here.
 */
export const v1OutputSchema = builtOncePerRoute(buildV1OutputSchema)

function buildV1OutputSchema(route: RouteSpec): JsonObject {
  const method = route.methods[0]!
  const input = method === 'GET' ? { queryParams: fields(route) } : { bodyType: 'json', bodyFields: fields(route) }
  return { input: { type: 'http', method, discoverable: true, ...input }, output: shallow(plainSchema(route.data), 1, false) }
}

/**
 * The x402 v2 `bazaar` extension of a route: an example call (`info`) and the JSON Schema that validates
 * it, in every 402's PAYMENT-REQUIRED (where facilitators' catalogues read it, echoed in the payment) and
 * in /.well-known/x402. It doubles that header (BENCHMARKS.md): the shipped nginx site gives response
 * headers 16 KB; the schema stays shallow and writes choices as `enum` to keep it near 2 KB.
 */
export const bazaarExtension = builtOncePerRoute(buildBazaarExtension)

function buildBazaarExtension(route: RouteSpec): JsonObject {
  const { input } = exampleCall(route)
  const queryParams = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)]))
  const query = plainSchema(route.query) as JsonObject
  return discoveryEntry({ type: 'http', method: 'GET', queryParams }, ['type', 'method'], {
    type: { type: 'string', const: 'http' },
    method: { type: 'string', enum: ['GET', 'HEAD', 'DELETE'] },
    queryParams: { type: 'object', properties: (shallow(query, 1, false) as JsonObject).properties, required: query.required ?? [] },
  })
}

/** A bazaar entry: its `info` (the call, JSON out) and the JSON Schema that validates it, around what the input holds. */
function discoveryEntry(input: JsonObject, required: string[], properties: JsonObject): JsonObject {
  return {
    info: { input, output: { type: 'json' } },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: { type: 'object', properties, required, additionalProperties: false },
        output: { type: 'object', properties: { type: { type: 'string' }, example: {} }, required: ['type'] },
      },
      required: ['input'],
    },
  }
}

/**
 * The bazaar extension of a route sold as an MCP tool (the bazaar spec's MCP section): the tool's name,
 * its full input schema and an example call, so a catalogue lists it as a tool, not as an HTTP route.
 * It travels in the tool result, not in a header, so the schema is the tool's whole `inputSchema`.
 */
export const mcpBazaarExtension = builtOncePerRoute((route) => {
  const { params, input } = exampleCall(route)
  const name = toolName(route)
  const info = {
    type: 'mcp',
    toolName: name,
    description: route.summary,
    transport: 'streamable-http',
    inputSchema: routeInputSchema(route),
    example: { ...params, ...input },
  }
  return discoveryEntry(info, ['type', 'toolName', 'inputSchema'], {
    type: { type: 'string', const: 'mcp' },
    toolName: { type: 'string', const: name },
    description: { type: 'string' },
    transport: { type: 'string', enum: ['streamable-http', 'sse'] },
    inputSchema: { type: 'object' },
    example: routeInputSchema(route),
  })
})
