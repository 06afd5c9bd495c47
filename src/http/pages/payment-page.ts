import type { TSchema } from '@sinclair/typebox'
import { allowedValues, type EvidenceMode, type RouteSpec, typicalWait } from '../../catalog'
import type { PaymentOffer } from '../../payments'
import { type ApiError, usdToAtomic } from '../../core'
import { errorHeaders } from '../responses'
import { FAVICON_SVG_PATH } from './favicon'
import { networksLabel, PAYMENT_HEADERS, termsHtml } from '../how-to-pay'
import { escapeHtml, htmlPage, HTML_HEADERS, textHtml } from './page'

export interface PaymentPageContext {
  publicBaseUrl: string
  offers: readonly PaymentOffer[]
  evidence: EvidenceMode
}

function parameterRows(route: RouteSpec): string {
  const rows: string[] = []
  for (const [object, where] of [
    [route.params, 'path'],
    [route.query, route.methods.includes('POST') ? 'query or JSON body' : 'query'],
  ] as const) {
    if (!object) continue
    const required = new Set(object.required ?? [])
    for (const [name, schema] of Object.entries(object.properties as Record<string, TSchema>)) {
      const values = allowedValues(schema)
      const allowed = values.length ? ` One of: ${values.map((v) => `<code>${escapeHtml(String(v))}</code>`).join(', ')}.` : ''
      rows.push(
        `<tr><td class="path">${escapeHtml(name)}</td><td>${required.has(name) ? 'required' : 'optional'}, ${where}</td>` +
          `<td>${textHtml(String(schema.description ?? ''))}${allowed}</td></tr>`,
      )
    }
  }
  if (rows.length === 0) return '<p>No parameters.</p>'
  return `<div class="scroll"><table><thead><tr><th scope="col">Parameter</th><th scope="col">Where</th><th scope="col">Meaning</th></tr></thead>\n<tbody>${rows.join('\n')}</tbody></table></div>`
}

/**
 * The 402 of a paid route as a page, for a browser (see accept.ts): what the route does, its price and
 * terms, and how an x402 client pays. Same status and the same payment-requirements headers as the JSON
 * 402; only the body and its content type differ. Built per route on first use: browsers only.
 */
export function paymentPages(context: PaymentPageContext) {
  const base = context.publicBaseUrl
  /** Each route's page split where the request's curl URL goes. */
  const pages = new Map<string, string[]>()
  const CURL = '\u0000curl\u0000'

  const template = (route: RouteSpec): string[] => {
    const price = escapeHtml(route.priceUsd)
    const html = htmlPage(
      `402 Payment required: ${route.path}`,
      `<header><img src="${FAVICON_SVG_PATH}" alt=""><h1>${escapeHtml(route.summary)}</h1></header>
<p><span class="status">402 Payment required</span> <code>${escapeHtml(route.path)}</code> is paid per request: <strong class="price" data-price>USD ${price}</strong> in USDC on ${escapeHtml(networksLabel(context.offers))}.</p>
<p>${textHtml(route.description)}</p>
<p><strong>Typical wait:</strong> ${escapeHtml(typicalWait(route, context.evidence))}.</p>
<h2>Parameters</h2>
${parameterRows(route)}
<h2>Price and terms</h2>
${termsHtml(context.offers, `<dt>Price</dt><dd><span class="price">USD ${price}</span> per request = ${usdToAtomic(route.priceUsd)} USDC base units (6 decimals)</dd>`)}
<h2>How to pay</h2>
<ol>
<li>This answer is that 402: its <code>${PAYMENT_HEADERS.requirements}</code> header carries the requirements; a client asking for JSON gets them in the body's <code>accepts</code> as well.</li>
<li>An x402 client (for example <code>@x402/fetch</code> or <code>x402-fetch</code> in JavaScript) signs an EIP-3009 <code>transferWithAuthorization</code> of exactly USD ${price} to the address above and repeats the request with the proof in <code>${PAYMENT_HEADERS.proof[0]}</code>.</li>
<li>The answer is JSON with the receipt in <code>${PAYMENT_HEADERS.receipt}</code>; its <code>meta.artifact_path</code> serves it again, free, for 24 hours. Lost the connection? Repeat the request with the same proof: you get the stored answer, never a second charge.</li>
</ol>
<pre><code># the requirements, as an agent sees them: a JSON 402 and the ${PAYMENT_HEADERS.requirements} header
curl -i ${CURL}
# the paid call, with the proof your x402 client produced
curl ${CURL} -H '${PAYMENT_HEADERS.proof[0]}: &lt;proof&gt;'</code></pre>
<nav aria-label="Documents"><ul class="links">
<li><a href="${escapeHtml(base)}/openapi#tag/${escapeHtml(route.family)}/GET${escapeHtml(route.path.replace(/:(\w+)/g, '{$1}'))}">This route in the API reference</a></li>
<li><a href="${escapeHtml(base)}/llms.txt">llms.txt</a></li>
<li><a href="${escapeHtml(base)}/.well-known/x402">x402 discovery</a></li>
<li><a href="${escapeHtml(base)}/">All routes and prices</a></li>
</ul></nav>`,
    )
    return html.split(CURL)
  }

  /** The page for one request: `url` is the absolute URL the curl lines repeat (resource plus the query). */
  return (route: RouteSpec, error: ApiError, requestId: string, url: string): Response => {
    let parts = pages.get(route.id)
    if (!parts) pages.set(route.id, (parts = template(route)))
    // The URL is shell-quoted (a query cannot hold a raw ' after URL parsing, but the quoting does not rely on it), then escaped for HTML.
    const curl = escapeHtml(`'${url.replaceAll("'", "'\\''")}'`)
    const headers = errorHeaders(error, requestId)
    for (const [k, v] of Object.entries(HTML_HEADERS)) headers.set(k, v)
    return new Response(parts.join(curl), { status: error.status, headers })
  }
}
