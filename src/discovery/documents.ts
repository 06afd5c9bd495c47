import {
  bazaarExtension,
  CATALOG,
  COMMON_CAP_ADVICE,
  COMMON_CLIENT_CAP_USD,
  FAMILY_TITLES,
  type EvidenceMode,
  MEDIA_TYPES,
  overCommonCap,
  plainSchema,
  routeInputSchema,
  type RouteSpec,
  SERVICE,
  serviceMetadata,
  typicalWaitSeconds,
} from '../catalog'
import { TABLE_ANSWER_HEADERS } from '../formats'
import { ERROR_CODES } from '../core'
import {
  BATCH_SETTLEMENT,
  type BatchOffer,
  OFFERED_EXTENSIONS,
  type PaymentOffer,
  PROOF_HEADERS,
  termsFor,
  v2PaymentRequired,
} from '../payments'
import pkg from '../../package.json' with { type: 'json' }

export interface DiscoveryContext {
  publicBaseUrl: string
  /** The networks a 402 offers, in order, with the address paid on each. */
  offers: readonly PaymentOffer[]
  /** Catalog ids this release serves; the others are listed as planned. */
  implemented: ReadonlySet<string>
  /** Where the China evidence comes from: the waits listed follow it. */
  evidence: EvidenceMode
}

/**
 * `/.well-known/x402`: every paid resource with its price, payment terms, and input and output
 * schemas, in the shape of a bazaar discovery listing (`items`, each with `resource`, `type`,
 * `accepts` and `metadata`). Generated from the catalog: nothing here is written by hand.
 */
export function wellKnownX402(ctx: DiscoveryContext) {
  const items = CATALOG.filter((r) => ctx.implemented.has(r.id)).map((route) => {
    const url = ctx.publicBaseUrl + route.path
    const required = v2PaymentRequired(
      route,
      ctx.offers.map((offer) => termsFor(route, offer)),
      url,
      'payment required',
      serviceMetadata(ctx.publicBaseUrl),
    )
    return {
      resource: url,
      type: 'http',
      x402Version: 2,
      accepts: required.accepts,
      metadata: {
        id: route.id,
        methods: route.methods,
        path: route.path,
        price_usd: route.priceUsd,
        summary: route.summary,
        description: route.description,
        typical_wait_seconds: typicalWaitSeconds(route, ctx.evidence),
        input: routeInputSchema(route),
        output: plainSchema(route.data),
        bazaar: bazaarExtension(route),
      },
    }
  })
  return {
    x402Version: 2,
    service: {
      ...serviceMetadata(ctx.publicBaseUrl),
      version: pkg.version,
      docs: `${ctx.publicBaseUrl}/openapi`,
      openapi: `${ctx.publicBaseUrl}/openapi/json`,
      llms: `${ctx.publicBaseUrl}/llms.txt`,
    },
    payment: {
      scheme: 'exact',
      network: ctx.offers[0]!.network.caip2,
      asset: ctx.offers[0]!.network.asset,
      payTo: ctx.offers[0]!.payTo,
      networks: ctx.offers.map(({ network, payTo, batch }) => ({
        network: network.caip2,
        name: network.name,
        asset: network.asset,
        payTo,
        schemes: batch ? ['exact', BATCH_SETTLEMENT] : ['exact'],
        ...(batch ? { batchSettlement: batchTerms(batch) } : {}),
      })),
      proof_headers: PROOF_HEADERS,
      extensions: OFFERED_EXTENSIONS,
    },
    items,
    planned: CATALOG.filter((r) => !ctx.implemented.has(r.id)).map((r) => ({ id: r.id, path: r.path, price_usd: r.priceUsd })),
  }
}

const param = (name: string, schema: Record<string, unknown>, required: boolean) => {
  const values = (schema.anyOf as { const?: unknown }[] | undefined)?.map((b) => b.const).filter((v) => v !== undefined)
  const what = [schema.description as string | undefined, values?.length ? `one of ${values.join(', ')}` : ''].filter(Boolean).join(' ')
  return `\`${name}\`${required ? ' (required)' : ''}${what ? `: ${what}` : ''}`
}

/** `/llms.txt`: the API described for agents, in Markdown, from the catalog. */
export function llmsTxt(ctx: DiscoveryContext): string {
  const base = ctx.publicBaseUrl
  const lines = [
    `# ${SERVICE.serviceName} API`,
    '',
    '> Pay-per-request JSON API about the Chinese consumer and marketing market: trend, sentiment and KOL intelligence,',
    '> weekly signal rankings, monthly destination spend and flight-arrival data, and capability wrappers that combine them.',
    `> Every request is paid with x402 (USDC on ${ctx.offers.map(({ network }) => `${network.name}, ${network.caip2}`).join('; or ')}); no account, no API key.`,
    '',
    '## How to call it',
    '',
    `1. Call a route. Without payment it answers HTTP 402 with \`error.code = "payment_required"\`, the x402 v1 requirements in the body (\`accepts\`) and the v2 requirements in the \`PAYMENT-REQUIRED\` header.`,
    '2. Sign an EIP-3009 `transferWithAuthorization` for exactly that amount to `payTo` (any x402 client does this) and repeat the request with the proof in the `X-PAYMENT` header (x402 v1) or `PAYMENT-SIGNATURE` (x402 v2); `x402-payment` works too.',
    `   Routes marked "over the common cap" cost more than USD ${COMMON_CLIENT_CAP_USD}: ${COMMON_CAP_ADVICE}`,
    '3. The answer is `{"success": true, "data": …, "meta": {"request_id", "artifact_path", "cache_status"}, "pricing": {"amount_usd", "payment_status": "paid"}}`.',
    '4. Lost the connection? Retry with the same proof (you get the stored answer, not a second charge) or GET `meta.artifact_path` (free, 24 h).',
    '5. Errors share one envelope: `{"success": false, "error": {"code", "message", "details"}, "meta": {"request_id"}}`. Bad input is a free 400/404 before any payment.',
    `6. Tables for analysts: a route marked "Table" below also answers that table alone, for the same price, as CSV (\`format=csv\` or \`Accept: ${MEDIA_TYPES.csv}\`; RFC 4180, header row) or as an Arrow IPC stream (\`format=arrow\` or \`Accept: ${MEDIA_TYPES.arrow}\`). The envelope's facts come as headers: ${Object.keys(
      TABLE_ANSWER_HEADERS,
    )
      .map((h) => `\`${h}\``)
      .join(', ')}. Errors and 402s stay JSON.`,
    '',
    `Machine-readable: [OpenAPI](${base}/openapi/json), [x402 discovery](${base}/.well-known/x402). Remote MCP server (Streamable HTTP, revisions 2026-07-28 and 2025): ${base}/mcp — every route as a tool, paid with the x402 MCP transport (\`_meta["x402/payment"]\`).`,
    ...batchLines(ctx.offers),
    `x402 extensions in every PaymentRequired: ${OFFERED_EXTENSIONS.map((extension) => `\`${extension.name}\` (${extension.what})`).join('; ')}.`,
    '',
    'The shipped datasets are generated, deterministic samples (real place names, invented brands and creators); every answer says so in `data.data_quality`.',
    '',
  ]
  for (const family of Object.keys(FAMILY_TITLES) as RouteSpec['family'][]) {
    const routes = CATALOG.filter((r) => r.family === family)
    if (routes.length === 0) continue
    lines.push(`## ${FAMILY_TITLES[family]}`, '')
    for (const route of routes) {
      const planned = ctx.implemented.has(route.id) ? '' : ' — planned, answers 501 (free)'
      lines.push(
        `- [${route.methods.join('/')} ${route.path}](${base}${route.path}) — USD ${route.priceUsd}${overCommonCap(route) ? ' (over the common cap)' : ''}${planned}. ${route.description}`,
      )
      const input = routeInputSchema(route)
      const params = Object.entries(input.properties).map(([name, s]) =>
        param(name, s as Record<string, unknown>, input.required.includes(name)),
      )
      if (params.length) lines.push(`  Parameters: ${params.join('; ')}.`)
      if (route.table) lines.push(`  Table: \`data.${route.table.field}\`, also as \`format=csv\` or \`format=arrow\`.`)
    }
    lines.push('')
  }
  lines.push('## Error codes', '')
  for (const [code, e] of Object.entries(ERROR_CODES)) lines.push(`- \`${code}\` (${e.status}): ${e.meaning}`)
  lines.push('')
  return lines.join('\n')
}

/** What a buyer opens a batch-settlement channel with, as discovery states it. */
const batchTerms = (batch: BatchOffer) => ({
  receiverAuthorizer: batch.receiverAuthorizer,
  withdrawDelaySeconds: batch.withdrawDelaySeconds,
  minDepositAtomic: batch.minDepositAtomic.toString(),
})

/** llms.txt: batch-settlement, where it is offered. */
function batchLines(offers: readonly PaymentOffer[]): string[] {
  const networks = offers.filter((offer) => offer.batch).map((offer) => offer.network.name)
  if (networks.length === 0) return []
  return [
    `Many calls? On ${networks.join(', ')} the 402 also offers x402 \`batch-settlement\` (same price per request): deposit once into the escrow (at least \`extra.minDeposit\`), then each request carries a signed cumulative voucher, charged with no transaction; the receipt's \`extra.channelState.chargedCumulativeAmount\` is the running total, a 402 whose \`error\` is \`invalid_batch_settlement_evm_cumulative_amount_mismatch\` carries the channel's state to resync from, and a \`refund\` payload sent to any paid URL returns the unclaimed rest (free). \`@x402/evm\`'s batch-settlement client does all of this.`,
  ]
}
