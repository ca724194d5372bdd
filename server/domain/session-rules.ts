/**
 * When a signed-in browser's session still holds, and how sign-in failures slow a client
 * down. Pure: the store keeps the sessions (server/store/session-repository.ts), the
 * password back-off counts the attempts (server/accounts/password-back-off.ts).
 */

export interface SessionLifetimes {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, however busy. */
  absoluteMs: number;
}

/** SESSION_IDLE_HOURS and SESSION_MAX_DAYS when they are not set: a week unused, a month at most. */
export const defaultSessionLifetimes: SessionLifetimes = {
  idleMs: 7 * 24 * 3_600_000,
  absoluteMs: 30 * 86_400_000,
};

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
}

/** The moment a session stops holding: whichever of its idle and absolute ends comes first. */
export function sessionEnd(session: SessionTimes, lifetimes: SessionLifetimes): Date {
  return new Date(
    Math.min(
      session.lastSeenAt.getTime() + lifetimes.idleMs,
      session.createdAt.getTime() + lifetimes.absoluteMs,
    ),
  );
}

export function sessionHolds(session: SessionTimes, now: Date, lifetimes: SessionLifetimes): boolean {
  return now.getTime() < sessionEnd(session, lifetimes).getTime();
}

/** How often a session's last use is written: its idle end moves on, without a write per request. */
export const touchEveryMs = 5 * 60_000;

export function needsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= touchEveryMs;
}

/**
 * Password attempts counted per window (sign-in, and the account pages that ask for the
 * password), before answers slow down and before they stop. Counted per account and client
 * together, so one client's guesses stop only that client; per client, across accounts; and
 * per account from everywhere, a ceiling far above the first against guesses spread over
 * many addresses, whose refusal points to "password forgotten".
 */
export const signInBackOff = {
  /** Failures within the window that are free: typos happen. */
  free: 3,
  /** The first slowed answer waits this long; each further failure doubles it. */
  firstDelayMs: 1_000,
  longestDelayMs: 8_000,
  /** Attempts within the window after which a password is no longer checked (429) until it passes. */
  perAccountAndClient: 10,
  perClient: 30,
  perAccount: 50,
  windowMs: 15 * 60_000,
} as const;

/** How long a password check waits before it answers, after `failures` failed attempts in the window. */
export function signInDelayMs(failures: number): number {
  const over = failures - signInBackOff.free;
  if (over < 0) return 0;
  return Math.min(signInBackOff.firstDelayMs * 2 ** over, signInBackOff.longestDelayMs);
}
