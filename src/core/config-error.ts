/** A setting that cannot be used, named by its environment variable: start-up stops with it (exit 2). */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`)
  }
}
