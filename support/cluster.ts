/**
 * Several instances of the service behind a real nginx running the shipped site
 * (deploy/nginx/china-market-intel.conf, one upstream line per instance, round-robin): what a
 * deployment with a shared ledger (LEDGER_URL) looks like. Each instance trusts nginx's
 * X-Forwarded-For and names nginx's URL in its 402s.
 */
import { clusterSiteFor, nginxBinary, startNginx, type StartedNginx } from './nginx'
import { freePort } from './ports'
import { startServer, type StartedServer } from './server'

export interface Cluster {
  /** nginx's URL: the one clients use */
  url: string
  instances: StartedServer[]
  nginx: StartedNginx
  /** Stops nginx, then every instance still running (killed ones are fine). */
  stop(): Promise<void>
}

const stopAll = async (instances: StartedServer[]) => {
  await Promise.allSettled(instances.map((s) => (s.proc.exitCode === null && s.proc.signalCode === null ? s.stop() : s.proc.exited)))
}

/**
 * Starts `instances` services concurrently (startServer: each on its own port, LEDGER_PATH :memory:
 * unless env sets it) with TRUSTED_PROXIES=127.0.0.1 and PUBLIC_BASE_URL=nginx's URL (env may override
 * either), then nginx in front of them. Whatever started is stopped again if any part fails.
 */
export async function startCluster(options: { instances: number; env?: Record<string, string> }): Promise<Cluster> {
  if (!Number.isInteger(options.instances) || options.instances < 1)
    throw new Error(`startCluster: instances must be a positive integer (got ${options.instances})`)
  const binary = nginxBinary()
  if (!binary) throw new Error('startCluster: nginx is not installed (not on PATH or in /usr/sbin)')
  const listenPort = await freePort()
  const url = `http://127.0.0.1:${listenPort}`
  const env = { TRUSTED_PROXIES: '127.0.0.1', PUBLIC_BASE_URL: url, ...options.env }

  const started = await Promise.allSettled(Array.from({ length: options.instances }, () => startServer(env)))
  const instances = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) {
    await stopAll(instances)
    throw failed.reason
  }

  let nginx: StartedNginx
  try {
    nginx = await startNginx(
      binary,
      clusterSiteFor(
        instances.map((s) => s.port),
        listenPort,
      ),
      listenPort,
    )
  } catch (error) {
    await stopAll(instances)
    throw error
  }
  return {
    url,
    instances,
    nginx,
    async stop() {
      try {
        await nginx.stop()
      } finally {
        await stopAll(instances)
      }
    },
  }
}
