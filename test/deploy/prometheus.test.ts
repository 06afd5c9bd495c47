/**
 * The operators' files in deploy/ (issue 37): Prometheus's alerting rules pass `promtool check rules`
 * and their unit tests (`promtool test rules`, Debian's prometheus package), every Grafana panel's
 * query is valid PromQL, and every metric either names is one a running service exports on /metrics.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { requireTool } from '../../support/required-tool'
import { startServer, type StartedServer } from '../../support/server'

const ROOT = resolve(import.meta.dir, '../..')
const RULES = join(ROOT, 'deploy/prometheus/alerts.yml')
const DASHBOARD = join(ROOT, 'deploy/grafana/china-market-intel.json')
const missing = Bun.which('promtool') ? null : "promtool is missing (Debian's prometheus package)"
requireTool('test/deploy/prometheus.test.ts', missing, ".ci/run installs Debian's prometheus package for promtool")

const promtool = (...args: string[]) => {
  const run = Bun.spawnSync(['promtool', ...args], { cwd: ROOT })
  return { code: run.exitCode, out: `${run.stdout.toString()}${run.stderr.toString()}` }
}

interface Panel {
  id: number
  type: string
  title: string
  targets?: { expr: string; refId: string }[]
}
const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[]; uid: string; __inputs: { name: string }[] }
const panelQueries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p, expr: t.expr })))
const ruleQueries = [...readFileSync(RULES, 'utf8').matchAll(/expr: (?:\|\n((?: {10}.*\n)+)|(.*))/g)].map((m) => (m[1] ?? m[2]!).trim())

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'and',
  'or',
  'unless',
  'le',
  'inf',
  'nan',
])

/** The metric names a PromQL expression reads: identifiers outside label matchers, grouping lists and ranges, not called as functions. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((name) => !KEYWORDS.has(name) && !/^\d/.test(name))
}

describe.skipIf(missing !== null)('Prometheus rules and the Grafana dashboard', () => {
  let server: StartedServer
  let exported: Set<string>
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promtool-'))
    // Nothing is paid: every metric is registered (its HELP and TYPE lines) from the start.
    server = await startServer({ METRICS_TOKEN: 'deploy-test-token-0123456789', WARM_UP_SAMPLE_ANSWERS: 'false' })
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer deploy-test-token-0123456789' } })).text()
    exported = new Set(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap((m) =>
        m[2] === 'histogram' ? [m[1]!, `${m[1]}_bucket`, `${m[1]}_sum`, `${m[1]}_count`] : [m[1]!],
      ),
    )
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('promtool check rules: the alerting rules are valid', () => {
    const run = promtool('check', 'rules', RULES)
    expect(run.out).toContain('SUCCESS: 7 rules found')
    expect(run.code).toBe(0)
  })

  test('promtool test rules: each alert fires on made-up series where it should, and not where it should not', () => {
    const run = promtool('test', 'rules', 'test/deploy/prometheus/alerts-test.yml')
    expect(run.out).toContain('SUCCESS')
    expect(run.code).toBe(0)
  })

  test('every dashboard query is valid PromQL (checked by promtool as recording rules)', () => {
    expect(panelQueries.length).toBeGreaterThan(20)
    const rules = panelQueries.map((q, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(q.expr)}`).join('\n')
    writeFileSync(join(dir, 'dashboard.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules}\n`)
    const run = promtool('check', 'rules', join(dir, 'dashboard.yml'))
    expect(run.out).toContain(`SUCCESS: ${panelQueries.length} rules found`)
  })

  test('the dashboard imports anywhere: one Prometheus input, unique panel ids, every panel on it', () => {
    expect(dashboard.__inputs.map((i) => i.name)).toEqual(['DS_PROMETHEUS'])
    const ids = dashboard.panels.map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(readFileSync(DASHBOARD, 'utf8')).not.toMatch(/"uid": "(?!\$\{DS_PROMETHEUS\}|china-market-intel")/)
  })

  test('every metric the rules and the panels read is one the service exports', () => {
    const read = new Set([...ruleQueries, ...panelQueries.map((q) => q.expr)].flatMap(metricNames))
    expect(read.size).toBeGreaterThan(25)
    expect([...read].filter((name) => !exported.has(name)).sort()).toEqual([])
  })

  test('the name reader finds names and only names', () => {
    expect(
      metricNames('sum by (le, route) (rate(http_request_duration_seconds_bucket{route=~"a|b"}[5m])) > 0.5 and on(instance) up offset 1d'),
    ).toEqual(['http_request_duration_seconds_bucket', 'up'])
  })
})
