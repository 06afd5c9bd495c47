/** The last call of each live provider, for /ready: a seller sees a failing provider without reading logs. */
export class ProviderHealth {
  private readonly last = new Map<string, { status: string; at: string; error?: string }>()

  note(provider: string, status: string, error?: string): void {
    this.last.set(provider, { status, at: new Date().toISOString(), ...(error ? { error } : {}) })
  }

  snapshot(): Record<string, { status: string; at: string; error?: string }> {
    return Object.fromEntries(this.last)
  }
}
