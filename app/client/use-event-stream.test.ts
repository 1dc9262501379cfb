import { describe, expect, it } from "vitest";
import { resumeUrl } from "./use-event-stream";

describe("a stream reopened by the hook", () => {
  it("resumes after the last event, keeping a query the stream's address already has", () => {
    expect(new URL(resumeUrl("/workBench/events", 42), "http://x").searchParams.get("lastEventId")).toBe("42");
    const listening = new URL(resumeUrl("/monitor/agent/events?lines", 7), "http://x").searchParams;
    expect(listening.has("lines")).toBe(true);
    expect(listening.get("lastEventId")).toBe("7");
  });
});
