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
    console.warn(`${file}: SKIPPED, ${missing}`)
  }
  return false
}
