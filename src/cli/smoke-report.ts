import type { SmokeResult } from './smoke-route'

export interface SmokeSummary {
  checks: number
  ok: number
  planned: number
  failed: number
}

export function summarize(results: readonly SmokeResult[]): SmokeSummary {
  const count = (r: SmokeResult['result']) => results.filter((x) => x.result === r).length
  return { checks: results.length, ok: count('OK'), planned: count('PLANNED'), failed: count('FAIL') }
}

/** Prints rows as they complete, so the column widths are fixed up front from the route labels. */
export function tableWriter(labels: readonly string[], write: (line: string) => void) {
  const width = Math.max('ROUTE'.length, ...labels.map((l) => l.length))
  const cols = (route: string, unpaid: string, paid: string, ms: string, usd: string, result: string) =>
    `${route.padEnd(width)}  ${unpaid.padStart(6)}  ${paid.padStart(4)}  ${ms.padStart(6)}  ${usd.padStart(5)}  ${result}`.trimEnd()
  const dash = (v: number | null) => (v === null ? '-' : String(v))
  return {
    header: () => write(cols('ROUTE', 'UNPAID', 'PAID', 'MS', 'USD', 'RESULT')),
    row: (r: SmokeResult) =>
      write(
        cols(
          `${r.method} ${r.path}`,
          dash(r.unpaid_status),
          dash(r.paid_status),
          dash(r.latency_ms),
          r.price_usd,
          r.reason ? `${r.result}  ${r.reason}` : r.result,
        ),
      ),
  }
}

export function summaryLine(s: SmokeSummary): string {
  const verdict = s.failed > 0 ? 'FAILED' : 'passed'
  return `Smoke test ${verdict}: ${s.checks} checks, ${s.ok} OK, ${s.planned} PLANNED (501, not served by this release), ${s.failed} FAIL.`
}
