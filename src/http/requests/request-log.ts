import type { ClientAddresses } from './client-address'
import type { Logger } from '../../core'
import { pathOf, requestIdFor } from './request-id'

export interface RequestInfo {
  id: string
  /** URL path without the query; read once (building `request.url` is not free). */
  path: string
  start: number
  logged: boolean
  /** Route label for metrics: the path template of the matched route. */
  route?: string
  /** The client's address once asked for (null: none known, e.g. in process). */
  client?: string | null
}

/** Where each finished request is counted (/metrics). */
export interface RequestMetrics {
  request(route: string, status: number, seconds: number): void
}

const INFO = Symbol('request-info')
type Tagged = Request & { [INFO]?: RequestInfo }

/**
 * Request id and one JSON log line per request, kept on the Request itself. Handlers call `begin` and
 * `finish` explicitly: global onRequest/onAfterResponse hooks cost about a fifth of the 402 path's
 * throughput in Elysia (measured, see BENCHMARKS.md), so the hot routes avoid them.
 */
export class RequestLog {
  constructor(
    private readonly logger: Logger,
    private readonly metrics?: RequestMetrics,
    private readonly clients?: ClientAddresses,
  ) {}

  /** `path` when the router already has it: reading `request.url` builds the whole URL string again. */
  begin(request: Request, path?: string, route?: string): RequestInfo {
    const tagged = request as Tagged
    return (tagged[INFO] ??= {
      id: requestIdFor(request.headers.get('x-request-id')),
      path: path ?? pathOf(request.url),
      start: performance.now(),
      logged: false,
      route,
    })
  }

  id(request: Request): string {
    return this.begin(request).id
  }

  /** The client's address (behind trusted proxies, the forwarded one), worked out once per request and only when asked. */
  client(request: Request): string | undefined {
    return this.addressOf(request, this.begin(request))
  }

  private addressOf(request: Request, info: RequestInfo): string | undefined {
    if (info.client === undefined) info.client = this.clients?.of(request) ?? null
    return info.client ?? undefined
  }

  /** Counts and logs the request once: method, path, status, handler latency, client address and, for paid answers, the payer. */
  finish(request: Request, status: number, payer?: string, route?: string): void {
    const info = this.begin(request)
    if (!info.logged) this.write(request, info, status, payer, route)
  }

  /**
   * A request answered at once, ahead of the framework (a remembered 402): `begin` and `finish` in one,
   * with nothing kept on the request. Returns its id.
   */
  answered(request: Request, path: string, route: string, status: number): string {
    const info: RequestInfo = {
      id: requestIdFor(request.headers.get('x-request-id')),
      path,
      start: performance.now(),
      logged: false,
      route,
    }
    this.write(request, info, status)
    return info.id
  }

  private write(request: Request, info: RequestInfo, status: number, payer?: string, route?: string): void {
    info.logged = true
    const ms = performance.now() - info.start
    this.metrics?.request(route ?? info.route ?? 'unmatched', status, ms / 1000)
    if (!this.logger.enabled('info')) return
    this.logger.request({
      request_id: info.id,
      method: request.method,
      path: info.path,
      status,
      latency_ms: Math.round(ms * 100) / 100,
      client_ip: this.addressOf(request, info),
      payer,
    })
  }
}
