/**
 * GET /console (the page, or the figures as JSON), and the browser's sign-in and sign-out. Without the
 * credential /console answers exactly as a path that does not exist; the sign-in form exists only when
 * METRICS_TOKEN is set (without it the console is open in development and off in production, as
 * /metrics is).
 */
import { Elysia } from 'elysia'
import { ledgerUnavailable, LedgerUnavailable, redactDeep } from '../../core'
import { prefersHtml } from '../accept'
import { noRoute } from '../pages/error-page'
import { free } from '../free-routes'
import type { RequestLog } from '../requests/request-log'
import { crossSite, FAILURE_WINDOW_SECONDS, failureKey, MAX_FAILURES, sessionCookie, type SellerAccess } from './auth'
import type { ConsoleFigures } from './figures'
import { consolePage, signInPage } from './console-page'
import { HTML_HEADERS } from '../pages/page'

/** The seller's pages are not the API: the public OpenAPI document does not name them (without the credential they are unknown paths). */
const HIDDEN = { detail: { hide: true } }

/** What a form sent from another site is told (it is not counted as a failed sign-in). */
const CROSS_SITE = 'Refused: this form was sent from another site. Sign in from this page.'

export interface ConsoleSource {
  /** The figures now (the source bounds how often the ledger is read). */
  figures(): Promise<ConsoleFigures>
  close(): Promise<void>
}

/** The console's pages: no script; forms post to this server only; never cached or framed. */
const CONSOLE_HEADERS = {
  ...HTML_HEADERS,
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}

export function consoleRoutes(deps: {
  source: ConsoleSource
  /** Shared with /metrics and /ready (app.ts): one count of wrong tokens per address. */
  seller: Exclude<SellerAccess, 'off'>
  publicBaseUrl?: string
  log: RequestLog
}) {
  const auth = deps.seller === 'open' ? null : deps.seller
  const addressOf = (request: Request) => failureKey(deps.log.client(request))
  // The origins this service's own pages post from: as reached, and as published behind a proxy.
  const ownOrigins = (request: Request) => [
    new URL(request.url).origin,
    ...(deps.publicBaseUrl ? [new URL(deps.publicBaseUrl).origin] : []),
  ]
  const finish = (request: Request, response: Response, route: string) => {
    deps.log.finish(request, response.status, undefined, route)
    return response
  }
  /** What any path that does not exist answers, word for word. */
  const unknown = (request: Request) => {
    const response = noRoute(request, deps.log.id(request))
    deps.log.finish(request, response.status)
    return response
  }
  const secure = (request: Request) => new URL(request.url).protocol === 'https:' || deps.publicBaseUrl?.startsWith('https:') === true
  const page = (html: string, status = 200, extra: Record<string, string> = {}) =>
    new Response(html, { status, headers: { ...CONSOLE_HEADERS, ...extra } })
  const redirect = (to: string, cookie: string) =>
    new Response(null, { status: 303, headers: { location: to, 'set-cookie': cookie, 'cache-control': 'no-store' } })

  return new Elysia({ name: 'console-routes' })
    .get(
      '/console',
      async ({ request }) => {
        if (auth && !auth.allows(request, addressOf(request))) return unknown(request)
        // A ledger that does not answer is the 503 the other routes give, not a 500.
        const figures = await deps.source.figures().catch((error: unknown) => {
          throw error instanceof LedgerUnavailable ? ledgerUnavailable(error) : error
        })
        // The page and the JSON read the same redacted figures (provider errors and RPC failures are quoted there).
        const shown = redactDeep(figures)
        const id = deps.log.id(request)
        if (!prefersHtml(request.headers.get('accept')))
          return finish(request, free(shown, id, { 'cache-control': 'no-store' }), '/console')
        return finish(request, page(consolePage(shown), 200, { 'x-request-id': id }), '/console')
      },
      HIDDEN,
    )
    .get('/console/sign-in', ({ request }) => (auth ? finish(request, page(signInPage()), '/console/sign-in') : unknown(request)), HIDDEN)
    .post(
      '/console/sign-in',
      ({ request, body }) => {
        if (!auth) return unknown(request)
        // Another site's form would spend this address's tries: refused, and not counted as one.
        if (crossSite(request, ownOrigins(request))) return finish(request, page(signInPage(CROSS_SITE), 403), '/console/sign-in')
        const address = addressOf(request)
        const wait = auth.refusedFor(address)
        if (wait > 0)
          return finish(
            request,
            page(signInPage(`Too many failed sign-ins from this address: try again in ${Math.ceil(wait / 60)} min.`), 429, {
              'retry-after': String(wait),
            }),
            '/console/sign-in',
          )
        const token = (body as Record<string, string> | undefined)?.token ?? ''
        if (auth.isToken(token))
          return finish(request, redirect('/console', sessionCookie(auth.session(), secure(request))), '/console/sign-in')
        auth.failed(address)
        const minutes = FAILURE_WINDOW_SECONDS / 60
        return finish(
          request,
          page(
            signInPage(`That is not the token. After ${MAX_FAILURES} failed tries in ${minutes} minutes, sign-in is refused for a while.`),
            401,
          ),
          '/console/sign-in',
        )
      },
      HIDDEN,
    )
    .post(
      '/console/sign-out',
      ({ request }) => {
        if (!auth) return unknown(request)
        // Another site's form cannot sign the seller out.
        if (crossSite(request, ownOrigins(request))) return finish(request, page(signInPage(CROSS_SITE), 403), '/console/sign-out')
        return finish(request, redirect('/console/sign-in', sessionCookie('', secure(request))), '/console/sign-out')
      },
      HIDDEN,
    )
}
