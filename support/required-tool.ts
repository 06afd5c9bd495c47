import { test } from 'bun:test'

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0'

/**
 * A test file that needs a program from Debian's packages (nginx, chromium, systemd-analyze): when it is
 * missing, CI fails with `why` (.ci/run installs it, so a missing tool is a broken CI set-up, not a
 * pass), and a developer's run prints that the file was skipped. Returns whether the tool is there.
 */
export function requireTool(file: string, missing: string | null, why: string): boolean {
  if (!missing) return true
  if (inCi) {
    test(`${missing} (required in CI)`, () => {
      throw new Error(`${missing}: ${why}`)
    })
  } else {
    noteSkipped(file, missing, why)
  }
  return false
}

/** Suites skipped in this run, for the list printed before the summary (skipped-summary.ts). */
const skipped: { file: string; missing: string; why: string }[] = ((globalThis as { skippedSuites?: [] }).skippedSuites ??= [])

/** Records (and says at once) that a file's real-part suite did not run here, and why. */
export function noteSkipped(file: string, missing: string, why: string): void {
  console.warn(`${file}: SKIPPED, ${missing}`)
  skipped.push({ file, missing, why })
}
