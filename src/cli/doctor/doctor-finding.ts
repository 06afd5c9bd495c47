import { foreignText } from '../../core'

/** One line of `doctor`'s go-live checklist. */
export type FindingStatus = 'ok' | 'warn' | 'block'

export interface Finding {
  check: string
  /** ok; warn: worth a look before going live; block: stops this service from taking money. */
  status: FindingStatus
  detail: string
  /** The setting (or step) that fixes it. */
  fix?: string
}

export const ok = (check: string, detail: string): Finding => ({ check, status: 'ok', detail })
export const warn = (check: string, detail: string, fix?: string): Finding => ({ check, status: 'warn', detail, ...(fix ? { fix } : {}) })
export const block = (check: string, detail: string, fix?: string): Finding => ({ check, status: 'block', detail, ...(fix ? { fix } : {}) })

/** How long one network check may take: a go-live check that hangs helps nobody. */
export const CHECK_TIMEOUT_MS = 5_000

export const messageOf = (error: unknown) => foreignText((error instanceof Error ? error.message : String(error)).split('\n')[0]!, 300)
