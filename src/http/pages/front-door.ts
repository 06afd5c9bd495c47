import { Elysia } from 'elysia'
import { CATALOG, type EvidenceMode, exampleCall, FAMILY_TITLES, type RouteSpec, typicalWait } from '../../catalog'
import type { PaymentOffer } from '../../payments'
import { prefersHtml } from '../accept'
import { FAVICON_SVG_PATH } from './favicon'
import { free } from '../free-routes'
import { HOW_TO_PAY, HOW_TO_PAY_HTML, paymentTerms, termsHtml } from '../how-to-pay'
import { escapeHtml, htmlPage, HTML_HEADERS, textHtml } from './page'
import type { RequestLog } from '../requests/request-log'

export interface FrontDoorContext {
  publicBaseUrl: string
  offers: readonly PaymentOffer[]
  /** Catalog ids this release serves; the others answer 501 and are marked as not served. */
  implemented: ReadonlySet<string>
  evidence: EvidenceMode
  version: string
}

export const SERVICE_TITLE = 'China market-intelligence API'

const DESCRIPTION =
  'A pay-per-request JSON API about the Chinese consumer and marketing market: China trend, sentiment and KOL intelligence, weekly signal rankings, monthly destination spend and flight-arrival data, and capability wrappers that combine them. Every /v1 route is paid per request with x402 (USDC): no account, no API key.'

const SAMPLE_NOTICE =
  'The datasets shipped with this service are generated, deterministic samples (real place names, invented brands and creators): their figures are not real observations. Every answer says what it is built on in `data.data_quality`.'

const EVIDENCE_NOTICE: Record<EvidenceMode, string> = {
  sample: 'No live provider is configured: the China routes answer from a sample evidence corpus with fictional creators and brands.',
  live: 'The China routes search live providers at request time.',
}

/** A working GET of a route (required parameters from the catalog's examples), as an absolute URL. */
function exampleUrl(base: string, route: RouteSpec): string {
  const call = exampleCall(route)
  const query = new URLSearchParams(Object.entries(call.input).map(([k, v]) => [k, String(v)])).toString()
  return `${base}${call.path}${query ? `?${query}` : ''}`
}

/** The front door's content, once per app: the same facts in the JSON and the HTML. */
function frontDoorData(context: FrontDoorContext) {
  const base = context.publicBaseUrl
  return {
    service: { name: SERVICE_TITLE, version: context.version, description: DESCRIPTION },
    sample_data: `${SAMPLE_NOTICE} ${EVIDENCE_NOTICE[context.evidence]}`,
    evidence: context.evidence,
    links: {
      docs: `${base}/openapi`,
      openapi: `${base}/openapi/json`,
      llms: `${base}/llms.txt`,
      x402: `${base}/.well-known/x402`,
      mcp: `${base}/mcp`,
      health: `${base}/health`,
    },
    payment: { ...paymentTerms(context.offers), how: HOW_TO_PAY },
    routes: CATALOG.map((route) => ({
      id: route.id,
      methods: route.methods,
      path: route.path,
      price_usd: route.priceUsd,
      summary: route.summary,
      typical_wait: typicalWait(route, context.evidence),
      served: context.implemented.has(route.id),
      example: exampleUrl(base, route),
    })),
  }
}

type Data = ReturnType<typeof frontDoorData>

const LINK_TITLES: Record<keyof Data['links'], string> = {
  docs: 'API reference',
  openapi: 'OpenAPI document',
  llms: 'llms.txt (for agents)',
  x402: 'x402 discovery',
  mcp: 'MCP endpoint (for MCP clients)',
  health: 'Health',
}

function routeRows(data: Data): string {
  return (Object.keys(FAMILY_TITLES) as RouteSpec['family'][])
    .map((family) => {
      const routes = data.routes.filter((r) => CATALOG.find((c) => c.id === r.id)!.family === family)
      if (routes.length === 0) return ''
      const rows = routes.map(
        (r) =>
          `<tr data-route="${escapeHtml(r.id)}"><td class="method">${escapeHtml(r.methods.join(', '))}</td>` +
          `<td class="path"><a href="${escapeHtml(r.example)}">${escapeHtml(r.path)}</a></td>` +
          `<td class="price">USD ${escapeHtml(r.price_usd)}</td>` +
          `<td>${escapeHtml(r.summary)}${r.served ? '' : ' <span class="muted">(not served by this release: 501, free)</span>'}</td></tr>`,
      )
      return `<tbody><tr><th colspan="4" scope="rowgroup">${escapeHtml(FAMILY_TITLES[family])}</th></tr>\n${rows.join('\n')}</tbody>`
    })
    .join('\n')
}

function frontDoorHtml(data: Data, context: FrontDoorContext): string {
  const links = (Object.keys(LINK_TITLES) as (keyof Data['links'])[])
    .map((k) => `<li><a href="${escapeHtml(data.links[k])}">${escapeHtml(LINK_TITLES[k])}</a></li>`)
    .join('\n')
  return htmlPage(
    SERVICE_TITLE,
    `<header><img src="${FAVICON_SVG_PATH}" alt=""><h1>${escapeHtml(SERVICE_TITLE)}</h1></header>
<p class="lead">${escapeHtml(DESCRIPTION)}</p>
<p class="note"><strong>Sample data.</strong> ${textHtml(SAMPLE_NOTICE)} ${escapeHtml(EVIDENCE_NOTICE[context.evidence])}</p>
<nav aria-label="Documents"><ul class="links">
${links}
</ul></nav>
<h2>How to pay</h2>
<p>${HOW_TO_PAY_HTML}</p>
${termsHtml(context.offers)}
<h2>Routes and prices</h2>
<p>Price per request in USD, paid in USDC. Open a route to see its payment page; parameters and answers are in the <a href="${escapeHtml(data.links.docs)}">API reference</a>.</p>
<div class="scroll"><table>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Price</th><th scope="col">What it answers</th></tr></thead>
${routeRows(data)}
</table></div>
<p class="muted">Agents: this page is JSON too, for any Accept header that does not prefer text/html (<code>curl ${escapeHtml(context.publicBaseUrl)}/</code>).</p>`,
  )
}

/** `GET /` (and HEAD): what this is, routes and prices, how to pay; HTML for browsers, the JSON envelope otherwise. */
export function frontDoor(context: FrontDoorContext, log: RequestLog) {
  const data = frontDoorData(context)
  const html = frontDoorHtml(data, context)
  return new Elysia({ name: 'front-door' }).get(
    '/',
    ({ request }) => {
      const id = log.id(request)
      log.finish(request, 200, undefined, '/')
      if (prefersHtml(request.headers.get('accept'))) return new Response(html, { headers: { ...HTML_HEADERS, 'x-request-id': id } })
      return free(data, id, { vary: 'accept' })
    },
    {
      detail: {
        tags: ['service'],
        summary: 'Front door: what this service is, every route with its price, how to pay (HTML for browsers, JSON otherwise)',
      },
    },
  )
}
