import { STATUS_CODES } from 'node:http'
import { ApiError } from '../../core'
import { readProofHeader } from '../../payments'
import { prefersHtml } from '../accept'
import { errorHeaders, errorResponse } from '../responses'
import { FAVICON_SVG_PATH } from './favicon'
import { escapeHtml, htmlPage, HTML_HEADERS, textHtml } from './page'
import { pathOf } from '../requests/request-id'

/**
 * An error as a page, for a browser (accept.ts: text/html preferred to JSON), as the 402 is one: the
 * same status, code, message, details and request id as the JSON envelope, and the same headers (the
 * request id, Retry-After, Allow); only the body and its content type differ.
 */
export function errorPage(error: ApiError, requestId: string, extra?: Record<string, string>): Response {
  const title = `${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`
  const details = Object.entries(error.details ?? {})
    .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</dd>`)
    .join('')
  const body = htmlPage(
    `${title}: ${error.code}`,
    `<header><img src="${FAVICON_SVG_PATH}" alt=""><h1>${escapeHtml(title)}</h1></header>
<p><span class="status">${error.status}</span> <code>${escapeHtml(error.code)}</code></p>
<p>${textHtml(error.message)}</p>
${details ? `<dl class="terms">${details}</dl>` : ''}
<p class="muted">Request id <code>${escapeHtml(requestId)}</code>. An agent asking for JSON gets this as the error envelope.</p>
<nav aria-label="Documents"><ul class="links">
<li><a href="/">All routes and prices</a></li>
<li><a href="/openapi">API reference</a></li>
<li><a href="/llms.txt">llms.txt</a></li>
</ul></nav>`,
  )
  const headers = errorHeaders(error, requestId, extra)
  for (const [name, value] of Object.entries(HTML_HEADERS)) headers.set(name, value)
  return new Response(body, { status: error.status, headers })
}

/**
 * The error as the client prefers it: a page for a browser, else the JSON envelope (one header lookup for
 * agents). A request carrying a payment proof comes from a paying client, which reads the envelope: JSON.
 */
export function errorFor(request: Request, error: ApiError, requestId: string, extra?: Record<string, string>): Response {
  const page = prefersHtml(request.headers.get('accept')) && readProofHeader(request.headers) === null
  return page ? errorPage(error, requestId, extra) : errorResponse(error, requestId, extra)
}

/** What a path that does not exist answers (and a protected one without its credential): the same words. */
export function noRoute(request: Request, requestId: string): Response {
  const path = pathOf(request.url)
  return errorFor(request, new ApiError('not_found', `No route ${request.method} ${path}. See /openapi for the routes.`), requestId)
}
