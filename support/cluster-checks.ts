import type { Cluster } from './cluster'
import { nginxBinary } from './nginx'
import { postgresMissing } from './postgres'
import { requireTool } from './required-tool'
import { until } from './until'

/**
 * For the suites that pay through several instances behind the shipped nginx site on one PostgreSQL
 * ledger: the programs they need, and where nginx passed their requests.
 */

/** Whether PostgreSQL, then nginx, are here (requireTool for each, saying what `suite` runs them as). */
export function postgresAndNginxReady(file: string, suite: string): boolean {
  return (
    requireTool(file, postgresMissing(), `${suite} run a real PostgreSQL as the shared ledger (.ci/run installs it)`) &&
    requireTool(
      file,
      nginxBinary() ? null : 'nginx not found',
      `${suite} run the shipped nginx site as the load balancer (.ci/run installs it)`,
    )
  )
}

/**
 * The upstreams nginx passed requests for `path` to, once its access log names at least `count` of them
 * (read when logged: nginx writes a line after answering).
 */
export function upstreamsServing(cluster: Cluster, path: string, count: number): Promise<Set<string | undefined>> {
  return until(`the access log to name ${count} instances`, async () => {
    const seen = new Set(
      cluster.nginx
        .accessLog()
        .split('\n')
        .filter((line) => line.includes(path))
        .map((line) => line.trim().split(' ').at(-1)),
    )
    return seen.size >= count ? seen : undefined
  })
}
