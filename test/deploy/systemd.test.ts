/**
 * deploy/systemd: the unit passes `systemd-analyze verify` (a copy whose ExecStart names a stand-in
 * executable, since the real one is not installed here), and the unit's and the example env file's
 * settings are ones the service accepts.
 */
import { describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ConfigError } from '../../src/core/config-error'
import { loadConfig } from '../../src/config/config'
import { ENV } from '../../src/config/settings'
import { requireTool } from '../../support/required-tool'

const ROOT = resolve(import.meta.dir, '../..')
const UNIT = readFileSync(join(ROOT, 'deploy/systemd/china-market-intel.service'), 'utf8')
const ENV_FILE = readFileSync(join(ROOT, 'deploy/systemd/china-market-intel.env'), 'utf8')
const analyze = Bun.which('systemd-analyze', { PATH: `${process.env.PATH ?? ''}:/usr/bin:/bin` })
requireTool(
  'test/deploy/systemd.test.ts',
  analyze ? null : 'systemd-analyze is not installed',
  ".ci/run installs Debian's systemd package; verify is what checks the shipped unit",
)

const directives = (name: string) => [...UNIT.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]!)
/** Environment= lines: space-separated NAME=value pairs, with the unit's specifiers for a system service. */
const unitEnvironment = () =>
  Object.fromEntries(
    directives('Environment')
      .flatMap((l) => l.split(/\s+/))
      .map((pair) => pair.replaceAll('%S', '/var/lib').replaceAll('%C', '/var/cache').split('=', 2) as [string, string]),
  )
/** The env file as systemd reads it: NAME=value lines, # comments; a value in single quotes is taken as written. */
const fileEnvironment = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z0-9_]+=/.test(l))
      .map((l) => {
        const eq = l.indexOf('=')
        const value = l.slice(eq + 1).trim()
        return [l.slice(0, eq), /^'.*'$/.test(value) ? value.slice(1, -1) : value]
      }),
  )

describe('deploy/systemd/china-market-intel.service', () => {
  test.skipIf(!analyze)('passes systemd-analyze verify without a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unit-verify-'))
    try {
      const stand_in = join(dir, 'china-market-intel')
      writeFileSync(stand_in, '#!/bin/sh\nexit 0\n')
      chmodSync(stand_in, 0o755)
      expect(directives('ExecStart')).toEqual(['/usr/local/bin/china-market-intel serve'])
      const unit = join(dir, 'china-market-intel.service')
      writeFileSync(unit, UNIT.replace(/^ExecStart=\/usr\/local\/bin\/china-market-intel /m, `ExecStart=${stand_in} `))
      const proc = Bun.spawn([analyze!, 'verify', '--man=no', unit], { stdout: 'pipe', stderr: 'pipe' })
      const output = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text())
      // verify exits 0 on unknown keys and bad values too, only printing them: the output must be empty.
      expect({ status: await proc.exited, output }).toEqual({ status: 0, output: '' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  if (!analyze) console.warn('test/deploy/systemd.test.ts: systemd-analyze not found, the unit is not verified')

  test('runs the executable as a dynamic user, the ledger in its state directory, settings from the env file', () => {
    expect(directives('DynamicUser')).toEqual(['yes'])
    expect(directives('StateDirectory')).toEqual(['china-market-intel'])
    expect(unitEnvironment().LEDGER_PATH).toBe('/var/lib/china-market-intel/ledger.sqlite')
    expect(directives('EnvironmentFile')).toEqual(['/etc/china-market-intel/env'])
    expect(directives('Restart')).toEqual(['on-failure'])
    // The JIT needs writable, executable memory.
    expect(directives('MemoryDenyWriteExecute')).toEqual([])
  })

  test('gives a stopping service longer than its shutdown deadline before SIGKILL', () => {
    const deadline = Number((ENV as Record<string, { default: string }>).SHUTDOWN_TIMEOUT_SECONDS?.default ?? 30)
    const [stop] = directives('TimeoutStopSec')
    expect(Number(stop)).toBeGreaterThan(deadline)
  })

  test('names only variables the service reads (a typo would be silently ignored)', () => {
    const known = new Set([...Object.keys(ENV), 'XDG_CACHE_HOME'])
    expect(Object.keys(unitEnvironment()).filter((n) => !known.has(n))).toEqual([])
    const named = [...ENV_FILE.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(5)
    expect(named.filter((n) => !known.has(n))).toEqual([])
  })

  test('with the example env file, the service refuses to start until PAY_TO is set, then accepts the settings', () => {
    const env = { ...unitEnvironment(), ...fileEnvironment(ENV_FILE) }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow('PAY_TO: is required when NODE_ENV=production')
    const c = loadConfig({ ...env, PAY_TO: '0x1111111111111111111111111111111111111111' })
    expect(c).toMatchObject({
      nodeEnv: 'production',
      host: '127.0.0.1',
      port: 3000,
      paymentMode: 'facilitator',
      ledgerPath: '/var/lib/china-market-intel/ledger.sqlite',
    })
    expect(c.trustedProxies?.description).toBe('127.0.0.1')
    // The commented headers line, uncommented as shown, is valid JSON once systemd has read it.
    const headers = ENV_FILE.match(/^# (X402_FACILITATOR_HEADERS=.*)$/m)![1]!
    expect(
      loadConfig({ ...env, PAY_TO: '0x1111111111111111111111111111111111111111', ...fileEnvironment(headers) }).facilitatorHeaders,
    ).toEqual({ Authorization: 'Bearer <token>' })
  })
})
