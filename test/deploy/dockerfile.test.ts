/**
 * deploy/Dockerfile, read statically (no container engine runs in CI): it copies what scripts/build.ts
 * writes, builds and runs on the same Debian release, runs as a non-root user with the ledger on a
 * volume, and its settings are ones the service reads.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { ENV } from '../../src/config/settings'

const ROOT = resolve(import.meta.dir, '../..')
const FILE = readFileSync(join(ROOT, 'deploy/Dockerfile'), 'utf8').replace(/\\\n/g, ' ')
const stages = FILE.split(/^FROM /m).slice(1)
const runtime = stages.at(-1)!
const instr = (text: string, name: string) => [...text.matchAll(new RegExp(`^${name} (.*)$`, 'gm'))].map((m) => m[1]!.trim())
const env = Object.fromEntries(
  instr(runtime, 'ENV')
    .flatMap((l) => l.split(/\s+/))
    .map((p) => p.split('=', 2) as [string, string]),
)

test('copies the executable scripts/build.ts writes by default', () => {
  const build = readFileSync(join(ROOT, 'scripts/build.ts'), 'utf8')
  expect(build).toContain("option('--outfile', 'dist/china-market-intel')")
  expect(stages[0]).toContain('RUN npm run build')
  expect(instr(runtime, 'COPY')).toContain('--from=build /src/dist/china-market-intel /usr/local/bin/china-market-intel')
})

test('builds and runs on the same Debian release (the executable links against its glibc), and checks it loads there', () => {
  expect(stages.map((s) => s.split('\n')[0])).toEqual(['node:20-bookworm-slim AS build', 'debian:bookworm-slim'])
  expect(runtime).toContain('china-market-intel --version') // dlopens DuckDB's library during the image build
})

test('non-root, ledger on a volume, cache in a private folder the user owns', () => {
  expect(instr(runtime, 'USER')).toEqual(['china-market-intel'])
  expect(runtime).toMatch(/useradd --system .*china-market-intel/)
  expect(instr(runtime, 'VOLUME')).toEqual([`["${dirname(env.LEDGER_PATH!)}"]`])
  expect(runtime).toContain(
    `install -d -o china-market-intel -g china-market-intel -m 0700 ${dirname(env.LEDGER_PATH!)} ${env.XDG_CACHE_HOME}/china-market-intel`,
  )
})

test('exposes the port it listens on and checks /health there', () => {
  expect(instr(runtime, 'EXPOSE')).toEqual([env.PORT!])
  expect(instr(runtime, 'HEALTHCHECK')[0]).toContain('curl -fsS "http://127.0.0.1:${PORT}/health"')
  expect(env.HOST).toBe('0.0.0.0')
})

test('sets only variables the service reads', () => {
  expect(Object.keys(env).filter((n) => !(n in ENV) && n !== 'XDG_CACHE_HOME')).toEqual([])
  expect(env.NODE_ENV).toBe('production')
})
