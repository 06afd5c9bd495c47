// The official MCP conformance suite against /mcp: starts the service from source on a free port (or
// uses --url <http://localhost:PORT/mcp> of one already running), runs every server scenario of
// @modelcontextprotocol/conformance, stops the service and prints a summary, scenario by scenario,
// with whether it applies to this server and why not. Exit code 0 when every applicable scenario
// passes and every inapplicable one fails as expected (the suite's own --expected-failures check).
//
// The suite is fetched by npx into npm's cache, not a devDependency: its tree needs Node >= 22
// (fs.globSync; content-type@3 via @octokit), and we support Node 20. Under an older Node its entry
// runs with bun.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const SUITE = '@modelcontextprotocol/conformance@0.1.16'
const ROOT = resolve(import.meta.dir, '..')

const fixture = (tool: string) =>
  `calls the suite's fixture tool \`${tool}\`, which only its reference server has; our tools are the catalog's paid routes, so the call is answered -32602 "Unknown tool"`
/** Scenarios that do not apply to this server, and why. Every other scenario must pass. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level':
    'no `logging` capability (the server sends no log messages): logging/setLevel is -32601 Method not found, as for any undeclared capability',
  'completion-complete': 'no prompts or resource templates, so no `completions` capability (-32601)',
  'tools-call-simple-text': fixture('test_simple_text'),
  'tools-call-image': fixture('test_image_content'),
  'tools-call-audio': fixture('test_audio_content'),
  'tools-call-embedded-resource': fixture('test_embedded_resource'),
  'tools-call-mixed-content': fixture('test_multiple_content_types'),
  'tools-call-with-logging': `sets a log level first (no \`logging\` capability: -32601), then ${fixture('test_tool_with_logging')}`,
  'tools-call-error': `${fixture('test_error_handling')} (a tool of ours that fails is an isError result: test/mcp)`,
  'tools-call-with-progress': fixture('test_tool_with_progress'),
  'tools-call-sampling': `${fixture('test_sampling')}; we never ask the client to sample`,
  'tools-call-elicitation': `${fixture('test_elicitation')}; we never elicit`,
  'elicitation-sep1034-defaults': `${fixture('test_elicitation_sep1034_defaults')}; we never elicit`,
  'elicitation-sep1330-enums': `${fixture('test_elicitation_sep1330_enums')}; we never elicit`,
  'json-schema-2020-12': 'looks for the fixture tool `json_schema_2020_12_tool` in tools/list',
  'server-sse-polling':
    'SSE resumability (SEP-1699) needs a session and SSE streams; /mcp is stateless and answers JSON (both allowed by the spec), so the suite warns "no session ID"',
  'server-sse-multiple-streams': 'as server-sse-polling: no session, no SSE streams (GET /mcp is 405)',
  'resources-list': 'no resources capability (-32601)',
  'resources-read-text': 'no resources capability (-32601)',
  'resources-read-binary': 'no resources capability (-32601)',
  'resources-templates-read': 'no resources capability (-32601)',
  'resources-subscribe': 'no resources capability (-32601)',
  'resources-unsubscribe': 'no resources capability (-32601)',
  'prompts-list': 'no prompts capability (-32601)',
  'prompts-get-simple': 'no prompts capability (-32601)',
  'prompts-get-with-args': 'no prompts capability (-32601)',
  'prompts-get-embedded-resource': 'no prompts capability (-32601)',
  'prompts-get-with-image': 'no prompts capability (-32601)',
}

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

/** The service from source on a free port (PORT=0; the port is read from the start-up banner). */
async function startService(): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, 'src/index.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LEDGER_PATH: ':memory:', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    stdout: 'inherit',
    stderr: 'pipe',
  })
  let banner = ''
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the service exited before listening:\n${banner}`)
    banner += new TextDecoder().decode(value)
    const port = banner.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/)?.[1]
    if (port) {
      void (async () => {
        while (!(await reader.read()).done); // keep draining so the service never blocks on stderr
      })()
      return {
        url: `http://localhost:${port}/mcp`, // a localhost URL: the dns-rebinding scenario requires one
        async stop() {
          proc.kill('SIGTERM')
          await proc.exited
        },
      }
    }
  }
}

/** The suite's CLI: with node when it is new enough, otherwise its entry with bun. */
function suiteCommand(args: string[]): { cmd: string[]; runtime: string } {
  const node = Bun.spawnSync(['node', '--version'], { stderr: 'ignore' })
  const nodeVersion = node.exitCode === 0 ? node.stdout.toString().trim() : ''
  if (Number(nodeVersion.match(/^v(\d+)/)?.[1] ?? 0) >= 22) return { cmd: ['npx', '-y', SUITE, ...args], runtime: `node ${nodeVersion}` }
  const viaBun = ['sh', '-c', 'exec "$0" "$(command -v conformance)" "$@"', process.execPath]
  return { cmd: ['npx', '-y', '-p', SUITE, '--', ...viaBun, ...args], runtime: `bun ${Bun.version} (node ${nodeVersion || 'absent'} < 22)` }
}

const urlArg = process.argv.indexOf('--url')
const given = urlArg > 0 ? process.argv[urlArg + 1] : undefined
const service = given ? { url: given, stop: async () => {} } : await startService()
const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'))
let exitCode = 1
try {
  const baseline = join(out, 'expected-failures.yml')
  writeFileSync(
    baseline,
    `server:\n${Object.keys(NOT_APPLICABLE)
      .map((s) => `  - ${s}\n`)
      .join('')}`,
  )
  const { cmd, runtime } = suiteCommand([
    'server',
    '--url',
    service.url,
    '--suite',
    'all',
    '--expected-failures',
    baseline,
    '-o',
    join(out, 'results'),
  ])
  console.log(`${SUITE} on ${runtime} against ${service.url}`)
  // npm's warnings (EBADENGINE under Node 20) are noise here; the suite's own output is kept.
  const run = Bun.spawn(cmd, { cwd: out, env: { ...process.env, npm_config_loglevel: 'error' }, stdout: 'pipe', stderr: 'pipe' })
  const [log, errors] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text()])
  exitCode = await run.exited

  const results = new Map<string, Check[]>()
  // One folder per scenario, named server-<scenario>-<start time>: sorted by time is the suite's order.
  const dirs = existsSync(join(out, 'results')) ? readdirSync(join(out, 'results')) : []
  for (const dir of dirs.sort((a, b) => a.slice(-24).localeCompare(b.slice(-24)))) {
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
    results.set(scenario, JSON.parse(readFileSync(join(out, 'results', dir, 'checks.json'), 'utf8')))
  }
  if (results.size === 0) throw new Error(`the suite produced no results (exit ${exitCode}):\n${log}\n${errors}`)

  const rows = [...results].map(([scenario, checks]) => {
    const count = (s: Check['status']) => checks.filter((c) => c.status === s).length
    const [passed, failed, warned] = [count('SUCCESS'), count('FAILURE'), count('WARNING')]
    const ok = failed === 0 && warned === 0
    const reason = NOT_APPLICABLE[scenario]
    const firstProblem = checks.find((c) => c.status === 'FAILURE' || c.status === 'WARNING')
    const verdict = reason ? (ok ? 'UNEXPECTED PASS' : 'does not apply') : ok ? 'pass' : 'FAIL'
    const problem = firstProblem
      ? (firstProblem.errorMessage ?? (firstProblem as { details?: { message?: string } }).details?.message ?? firstProblem.id)
      : ''
    const observed = problem.length > 120 ? `${problem.slice(0, 117)}...` : problem
    return { scenario, checks: `${passed}/${failed}/${warned}`, verdict, why: reason ?? '', observed, good: reason ? !ok : ok }
  })
  const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ')
  console.log('\n| Scenario | Checks ok/failed/warnings | Result | Why it does not apply | What the suite saw |\n|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.scenario} | ${r.checks} | ${r.verdict} | ${cell(r.why)} | ${cell(r.observed)} |`)
  const applicable = rows.filter((r) => !NOT_APPLICABLE[r.scenario])
  console.log(
    `\n${applicable.filter((r) => r.good).length} of ${applicable.length} applicable scenarios pass; ${rows.length - applicable.length} do not apply (${rows.filter((r) => NOT_APPLICABLE[r.scenario] && r.good).length} of them fail as expected).`,
  )
  const unknown = rows.filter((r) => !r.good)
  if (unknown.length) console.log(`Not as expected: ${unknown.map((r) => r.scenario).join(', ')}`)
  if (unknown.length && exitCode === 0) exitCode = 1
} finally {
  await service.stop()
  if (process.argv.includes('--keep-output')) console.log(`results kept in ${out}`)
  else rmSync(out, { recursive: true, force: true })
}
process.exit(exitCode)
