/**
 * At most `max` failed sign-ins per account per window; then the account waits until the
 * oldest failure leaves the window. Kept per console process: a limit, not an audit trail.
 */
export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAt: number };

export function createLoginThrottle({ max = 10, windowMs = 15 * 60_000, now = () => Date.now() } = {}) {
  const failures = new Map<string, number[]>();

  function recent(key: string): number[] {
    const since = now() - windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  return {
    check(key: string): ThrottleVerdict {
      const times = recent(key);
      return times.length >= max ? { allowed: false, retryAt: times[times.length - max] + windowMs } : { allowed: true };
    },
    fail(key: string): void {
      failures.set(key, [...recent(key), now()]);
    },
    succeed(key: string): void {
      failures.delete(key);
    },
  };
}

/** '登录失败次数过多，请在 14:05 后重试（约 12 分钟）' in the server's local time. */
export function throttleMessage(retryAt: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((retryAt - now) / 60_000));
  const at = new Date(retryAt);
  const clock = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  return `登录失败次数过多，请在 ${clock} 后重试（约 ${minutes} 分钟）`;
}
