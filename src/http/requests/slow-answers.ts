/**
 * Bun closes a connection on which nothing was written for `idleTimeout` seconds, also while its
 * request is still being answered. Idle keep-alive and slow clients should go after 30 s; a paid
 * answer may take its whole payment window (live providers: 30-45 s, window up to 105 s). So the
 * listener keeps the short timeout and each paid request lengthens its own.
 */

/** The listener's idle timeout, as Elysia's listen set it. */
export const IDLE_TIMEOUT_SECONDS = 30

/** Bun's largest idle timeout. */
export const MAX_IDLE_SECONDS = 255

/** The part of Bun's Server a handler needs to lengthen its request's idle timeout. */
export interface SlowAnswers {
  timeout(request: Request, seconds: number): void
}
