type Fetch = (request: Request) => Response | Promise<Response>

/**
 * The requests a listening server is still answering, so that a shutdown deadline can answer the ones
 * that never end (a stalled upload, a hung provider) instead of waiting for them forever. Bun's
 * `server.stop()` resolves once every request has a response; `cut` gives each one still open its
 * response now, while the work behind it is abandoned.
 */
export class Drain {
  private readonly open = new Map<Request, (response: Response) => void>()
  private idleWaiters: (() => void)[] = []

  /** `fetch`, with each request whose answer is not immediate tracked until it is answered. */
  wrap(fetch: Fetch): Fetch {
    return (request) => {
      const response = fetch(request)
      if (!(response instanceof Promise)) return response
      return new Promise<Response>((resolve, reject) => {
        this.open.set(request, resolve)
        response.then(
          (r) => (this.done(request), resolve(r)),
          (e: unknown) => (this.done(request), reject(e)),
        )
      })
    }
  }

  private done(request: Request): void {
    this.open.delete(request)
    this.wakeIfIdle()
  }

  private wakeIfIdle(): void {
    if (this.open.size > 0) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const wake of waiters) wake()
  }

  get size(): number {
    return this.open.size
  }

  /** Resolves once no request waits for its answer (connections may still be reading the rest of a refused upload). */
  idle(): Promise<void> {
    return this.open.size === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Answers every request still open with `answer(request)`; returns how many there were. */
  cut(answer: (request: Request) => Response): number {
    const open = [...this.open]
    this.open.clear()
    this.wakeIfIdle()
    for (const [request, resolve] of open) resolve(answer(request))
    return open.length
  }
}
