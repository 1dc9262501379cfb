/**
 * The live monitor's arithmetic and notification types, apart from its schemas (contracts/monitor.ts
 * re-exports them): the monitor's island imports this module, so building the schemas, and zod
 * with them, stays out of the browser (decision 049).
 */

export const MONITOR_NOTIFICATIONS = { agent: "monitor.agent", queue: "monitor.queue", line: "monitor.line" } as const;

/**
 * The live part of a queue's figures (or the tenant's, queueName null), from its agents and the
 * calls waiting: the platform's snapshot and the monitor's island count them the same way.
 */
export function liveCounts(
  queueName: string | null,
  agents: ReadonlyArray<{ state: string; reason: string | null }>,
  waiting: ReadonlyArray<{ waiting: number; oldestWaitingSince: string | null }>,
) {
  const count = (...states: string[]) => agents.filter((a) => states.includes(a.state)).length;
  const notReady: Record<string, number> = {};
  for (const agent of agents)
    if (agent.state === "NOT_READY") notReady[agent.reason ?? "BREAK"] = (notReady[agent.reason ?? "BREAK"] ?? 0) + 1;
  const oldest = waiting
    .map((w) => w.oldestWaitingSince)
    .filter((at): at is string => at !== null)
    .sort()[0];
  return {
    queueName,
    signedIn: agents.filter((a) => a.state !== "SIGNED_OUT").length,
    ready: count("READY"),
    onCall: count("RINGING", "TALKING", "HOLD"),
    onChat: count("ON_CHAT"),
    afterCallWork: count("ACW"),
    notReady,
    lost: count("LOST"),
    waiting: waiting.reduce((sum, w) => sum + w.waiting, 0),
    oldestWaitingSince: oldest ?? null,
  };
}

/** Which threshold a state is held to (MONITOR_RULE_KEYS); null for states without one. */
export function ruleKeyOf(state: string): string | null {
  if (state === "HOLD") return "TALKING";
  return ["NOT_READY", "ACW", "TALKING", "RINGING"].includes(state) ? state : null;
}

/** How far past its thresholds a duration is: none, warning or critical. */
export function levelOf(
  seconds: number,
  rule: { warningSeconds: number; criticalSeconds: number } | undefined,
): "none" | "warning" | "critical" {
  if (!rule) return "none";
  if (seconds >= rule.criticalSeconds) return "critical";
  return seconds >= rule.warningSeconds ? "warning" : "none";
}
