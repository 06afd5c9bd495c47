import type { Server } from 'bun'
import { PortRegistry } from './port-registry'
import { IDLE_TIMEOUT_SECONDS, type NativeRoutes, REQUEST_LIMITS } from '../http'

/** Exit status of `serve` when it cannot listen: the port is in use, HOST is not local, sharing refused. */
export const EXIT_CANNOT_LISTEN = 3

/** Why the service cannot listen, as one line for the operator. */
export class ListenError extends Error {}

export interface ListenOptions {
  host: string
  port: number
  /** REUSE_PORT: join other instances on this port, only those registered in the same ledger file. */
  reusePort: boolean
  ledgerPath: string
  fetch: (request: Request) => Response | Promise<Response>
  /** Bun's native route table (see native-routes.ts); what it does not match goes to `fetch`. */
  routes?: NativeRoutes
  /** Seconds a connection may stay silent (default IDLE_TIMEOUT_SECONDS); paid requests lengthen their own. */
  idleTimeoutSeconds?: number
}

export interface Listening {
  server: Server<undefined>
  /** Drops this instance from the port's registry (REUSE_PORT); call once the listener is closed. */
  unregister(): void
}

const addressOf = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)

const inUse = (e: unknown) => (e as { code?: string } | null)?.code === 'EADDRINUSE'

/**
 * Binds the HTTP server. SO_REUSEPORT only when asked: Elysia's `listen` sets it by default, and then a
 * second instance on the port started silently and the kernel split the traffic between two ledgers.
 */
export function listen(options: ListenOptions): Listening {
  if (!options.reusePort) return { server: bind(options, false), unregister: () => {} }
  const address = addressOf(options.host, options.port)
  const registry = new PortRegistry(options.ledgerPath)
  try {
    // Under the ledger file's write lock, so instances of one ledger starting at once take turns.
    const server = registry.exclusive(() => {
      let probe: Server<undefined> | undefined
      try {
        probe = bind(options, false)
      } catch (error) {
        if (!(error instanceof ListenError && inUse(error.cause))) throw error
      }
      if (probe)
        probe.stop(true) // free: this instance opens the port, in a way others can join
      else if (registry.holders(address).length === 0) {
        throw new ListenError(
          `Port in use: ${address} is held by a process that is not an instance of this service on this ledger (LEDGER_PATH=${options.ledgerPath}). ` +
            'REUSE_PORT=true joins only instances registered in the same ledger file: give every instance the same LEDGER_PATH, HOST and PORT, or stop that process.',
        )
      }
      const server = bind(options, true, 'a registered instance holds it without REUSE_PORT=true')
      registry.add(address, process.pid)
      return server
    })
    return {
      server,
      unregister: () => {
        registry.remove(address, process.pid)
        registry.close()
      },
    }
  } catch (error) {
    registry.close()
    throw error
  }
}

function bind(options: ListenOptions, reusePort: boolean, heldBy?: string): Server<undefined> {
  try {
    // development: false, so an escaped error never shows a stack to a client.
    return Bun.serve({
      hostname: options.host,
      port: options.port,
      reusePort,
      idleTimeout: options.idleTimeoutSeconds ?? IDLE_TIMEOUT_SECONDS,
      // Bodies are refused far below this (REQUEST_LIMITS); up to it, a refused body is drained so its client reads the 413.
      maxRequestBodySize: REQUEST_LIMITS.drainBytes,
      development: false,
      fetch: options.fetch,
      ...(options.routes ? { routes: options.routes } : {}),
    })
  } catch (error) {
    throw new ListenError(explain(error, addressOf(options.host, options.port), heldBy), { cause: error })
  }
}

function explain(error: unknown, address: string, heldBy?: string): string {
  const code = (error as { code?: string } | null)?.code
  if (code === 'EADDRINUSE') {
    return heldBy
      ? `Port in use: ${address} is taken and cannot be shared (${heldBy}). Stop that process, or set PORT to a free port.`
      : `Port in use: ${address} is already taken by another process (another instance of this service, or another program). Stop it, or set PORT to a free port. Several instances share a port only with REUSE_PORT=true and one LEDGER_PATH.`
  }
  if (code === 'EADDRNOTAVAIL')
    return `Cannot listen on ${address}: HOST is not an address of this machine. Set HOST to one of its addresses (0.0.0.0: all of them).`
  if (code === 'EACCES')
    return `Cannot listen on ${address}: permission denied (ports below 1024 need privileges). Use a port from 1024 up, or grant the process CAP_NET_BIND_SERVICE.`
  return `Cannot listen on ${address}: ${error instanceof Error ? error.message : String(error)}`
}
