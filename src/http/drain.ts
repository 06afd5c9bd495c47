type Fetch = (request: Request) => Response | Promise<Response>

/**
 * The requests a listening server is still answering, so that a shutdown deadline can answer the ones
 * that never end (a stalled upload, a hung provider) instead of waiting for them forever. Bun's
 * `server.stop()` resolves once every request has a response; `cut` gives each one still open its
 * response now, while the work behind it is abandoned.
 */
export class Drain {
  private readonly open = new Map<Request, (response: Response) => void>()

  /** `fetch`, with each request whose answer is not immediate tracked until it is answered. */
  wrap(fetch: Fetch): Fetch {
    return (request) => {
      const response = fetch(request)
      if (!(response instanceof Promise)) return response
      return new Promise<Response>((resolve, reject) => {
        this.open.set(request, resolve)
        response.then(
          (r) => (this.open.delete(request), resolve(r)),
          (e: unknown) => (this.open.delete(request), reject(e)),
        )
      })
    }
  }

  get size(): number {
    return this.open.size
  }

  /** Answers every request still open with `answer(request)`; returns how many there were. */
  cut(answer: (request: Request) => Response): number {
    const open = [...this.open]
    this.open.clear()
    for (const [request, resolve] of open) resolve(answer(request))
    return open.length
  }
}
