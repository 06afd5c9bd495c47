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
    row: (result: SmokeResult) =>
      write(
        cols(
          `${result.method} ${result.path}`,
          dash(result.unpaid_status),
          dash(result.paid_status),
          dash(result.latency_ms),
          result.price_usd,
          result.reason ? `${result.result}  ${result.reason}` : result.result,
        ),
      ),
  }
}

export function summaryLine(summary: SmokeSummary): string {
  const verdict = summary.failed > 0 ? 'FAILED' : 'passed'
  return `Smoke test ${verdict}: ${summary.checks} checks, ${summary.ok} OK, ${summary.planned} PLANNED (501, not served by this release), ${summary.failed} FAIL.`
}
