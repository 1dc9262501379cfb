import { describe, expect, it } from "vitest";
import { newRequestContext, runInRequest } from "./request-context";
import { startChildSpan, startRequestSpan, startTracing, tracingConfigured, tracingOn } from "./tracing";

describe("tracing's switch", () => {
  it("is on with an OTLP endpoint (all signals' or the traces'), off without one or when turned off the standard ways", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_SERVICE_NAME: "console", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false);
  });

  it("when off, starting it loads nothing and a request records no span, its ids unchanged", async () => {
    await startTracing("test", {});
    expect(tracingOn()).toBe(false);
    const context = newRequestContext();
    const spanId = context.spanId;
    expect(startRequestSpan(context, "GET /", undefined)).toBeNull();
    expect(context.spanId).toBe(spanId);
    expect(runInRequest(context, () => startChildSpan("SELECT", "client"))).toBeNull();
  });
});
