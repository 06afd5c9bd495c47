import { readProofHeader, SIGN_IN_WITH_X } from '../payments'
import { errorResponse } from './responses'
import type { ApiError } from '../core'
import { pathOf } from './requests/request-id'
import type { RequestLog } from './requests/request-log'

type Ahead = (request: Request) => Response | undefined

/** Entries kept in all; when full the cache starts over (hostile query strings cannot grow it). */
const MAX_ENTRIES = 4096
/** Longer requests (URL and Accept) are not remembered: ordinary ones are far shorter. */
const MAX_KEY_LENGTH = 1024

/**
 * The unpaid 402 of a paid route, remembered per raw request (its URL and Accept) once the
 * full path has answered it: the same bytes in, the same validation, resolution and requirements out,
 * so a repeat skips the framework's query parsing and validation, the parameter resolution and the
 * gate, and only gets its own request id, log line and metrics. The 402 is the most frequent answer of
 * a paid API and the one an attacker gets for free, so it must be cheap.
 *
 * Only requests without a payment proof or a sign-in, by GET, that did not ask for the browser page are remembered
 * or answered here. A new dataset snapshot (`generation`) forgets everything, since a name may resolve
 * differently (or no longer at all) in another version.
 */
export class UnpaidAnswers {
  private readonly answers = new Map<string, ApiError>()
  private readonly routes = new Map<string, Ahead>()
  private seen: unknown

  /** `generation` is asked only once something was remembered (after the start-up build: see indexing.ts). */
  constructor(
    private readonly log: RequestLog,
    private readonly generation: () => unknown = () => undefined,
  ) {}

  /** A catalog route answered by GET: its remembered 402s are served ahead of the framework. */
  addRoute(template: string, hasPathParameters: boolean): void {
    this.routes.set(template, (request) => this.answer(request, hasPathParameters ? pathOf(request.url) : template, template))
  }

  /** What to try before the framework's handler of a route path (undefined: nothing, not a paid GET route). */
  ahead(template: string): Ahead | undefined {
    return this.routes.get(template)
  }

  /**
   * URL (path and query, behind the host the client named) and Accept of a request, or undefined when it
   * is not one to remember or answer. The whole URL as Bun gives it: cutting the host off cost a search
   * and a copy per request.
   */
  private keyOf(request: Request): string | undefined {
    if (request.method !== 'GET' || readProofHeader(request.headers) !== null || request.headers.has(SIGN_IN_WITH_X)) return undefined
    const key = `${request.url}\n${request.headers.get('accept') ?? ''}`
    return key.length <= MAX_KEY_LENGTH ? key : undefined
  }

  private current(): Map<string, ApiError> {
    const generation = this.generation()
    if (generation !== this.seen) {
      this.answers.clear()
      this.seen = generation
    }
    return this.answers
  }

  /** After the full path answered `request` with this 402 (never a browser page). */
  remember(request: Request, answer: ApiError): void {
    const key = this.keyOf(request)
    if (key === undefined) return
    if (this.answers.size === 0) this.seen = this.generation()
    const answers = this.current()
    if (answers.size >= MAX_ENTRIES) answers.clear()
    answers.set(key, answer)
  }

  /** The remembered 402 for this request, logged and counted like the full path's, or undefined. */
  private answer(request: Request, path: string, template: string): Response | undefined {
    if (this.answers.size === 0) return undefined
    const key = this.keyOf(request)
    const answer = key === undefined ? undefined : this.current().get(key)
    if (!answer) return undefined
    return errorResponse(answer, this.log.answered(request, path, template, answer.status))
  }

  get size(): number {
    return this.answers.size
  }
}
