import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'

const ROOT = resolve(import.meta.dir, '..')
export const SHIPPED_SITE = join(ROOT, 'deploy/nginx/china-market-intel.conf')

/** The nginx binary: on PATH or where Debian puts it (/usr/sbin is not on every user's PATH). */
export const nginxBinary = () => Bun.which('nginx', { PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` })

/** The shipped site with only its ports changed; each must occur exactly once, so the file cannot drift from what is tested. */
export function siteFor(upstreamPort: number, listenPort: number, text = readFileSync(SHIPPED_SITE, 'utf8')): string {
  return clusterSiteFor([upstreamPort], listenPort, text)
}

/**
 * The shipped site in front of several instances: its one upstream line becomes one line per port (nginx
 * balances them round-robin, its default), its listen port changed; the same exactly-once checks as siteFor.
 */
export function clusterSiteFor(upstreamPorts: number[], listenPort: number, text = readFileSync(SHIPPED_SITE, 'utf8')): string {
  if (upstreamPorts.length === 0) throw new Error('clusterSiteFor: no upstream ports')
  const swap = (from: RegExp, to: string) => {
    const hits = text.match(new RegExp(from.source, 'gm'))?.length ?? 0
    if (hits !== 1) throw new Error(`${SHIPPED_SITE}: expected exactly one ${from} (found ${hits})`)
    text = text.replace(from, to)
  }
  swap(/^([ \t]*server 127\.0\.0\.1:)3000;/m, upstreamPorts.map((p) => `$1${p};`).join('\n'))
  swap(/^(\s*listen )80;/m, `$1${listenPort};`)
  return text
}

export interface StartedNginx {
  url: string
  dir: string
  accessLog(): string
  errorLog(): string
  stop(): Promise<void>
}

/**
 * A throwaway nginx in the foreground under its own prefix (temp dir: pid, logs, temp paths), one
 * process (no master/worker privilege drop, no system config read), serving the given site text.
 */
export async function startNginx(binary: string, site: string, port: number): Promise<StartedNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'))
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d))
  writeFileSync(join(dir, 'site.conf'), site)
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 256; }
http {
    default_type application/octet-stream;
    log_format test '$remote_addr "$http_x_forwarded_for" $status $request_id "$request" $upstream_addr';
    access_log ${dir}/access.log test;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/site.conf;
}
`,
  )
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8')
    } catch {
      return ''
    }
  }
  // -e: the error log from the first moment (else nginx opens the system's before reading the config).
  const proc: Subprocess = Bun.spawn([binary, '-p', `${dir}/`, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15_000
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(
        `nginx exited with ${proc.exitCode}:\n${read('error.log')}${await new Response(proc.stderr as ReadableStream).text()}`,
      )
    try {
      if ((await fetch(`${url}/health`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill()
      throw new Error(`nginx did not proxy /health in 15 s:\n${read('error.log')}`)
    }
    await Bun.sleep(50)
  }
  return {
    url,
    dir,
    accessLog: () => read('access.log'),
    errorLog: () => read('error.log'),
    async stop() {
      proc.kill('SIGQUIT') // graceful: finish what is in flight
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
