import type { Span as OtelSpan } from "@opentelemetry/api";

/** What tracing.ts asks of the SDK: spans with our ids. */
export type SpanKindName = "server" | "client" | "internal";
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface Span {
  readonly spanId: string;
  /** Ends the span (once; later calls do nothing); `failed` marks it as an error. */
  end(attributes?: SpanAttributes, failed?: boolean): void;
}

export interface Tracer {
  /** A span under `parent` (another process's span when `remote`), or a new trace with id `traceId` when it has no span. */
  start(
    name: string,
    kind: SpanKindName,
    parent: { traceId: string; spanId?: string; remote?: boolean },
    options?: { attributes?: SpanAttributes; startTime?: number },
  ): Span;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK behind tracing.ts, loaded only when tracing is configured (decision 041).
 * Its packages are imported here, inside the function, so that no bundling of this module can
 * load them at startup.
 *
 * Spans go in batches to the OTLP/HTTP endpoint of the standard variables (OTEL_EXPORTER_OTLP_
 * ENDPOINT or _TRACES_ENDPOINT, _HEADERS, _TIMEOUT; the exporter reads them), as JSON
 * (`http/json`). OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the process.
 */
export async function createTracer(serviceName: string, env: Record<string, string | undefined>): Promise<Tracer> {
  const [api, sdk, resources, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== "http/json")
    console.warn(`[tracing] OTLP protocol ${protocol} is not supported; spans are sent as http/json`);

  // A trace begun here takes the request's id as its trace id (`rootTraceId`, set around the
  // start of a root span): the id in the logs and X-Request-Id is the one a trace viewer finds.
  const random = new sdk.RandomIdGenerator();
  let rootTraceId: string | undefined;
  const idGenerator = { generateTraceId: () => rootTraceId ?? random.generateTraceId(), generateSpanId: () => random.generateSpanId() };

  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": serviceName }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const scheduledDelayMillis = Number(env.OTEL_BSP_SCHEDULE_DELAY) || 5_000;
  const provider = new sdk.TracerProvider({
    resource,
    idGenerator,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis })],
  });
  const tracer = provider.getTracer("switchboard");
  const kinds = { server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT, internal: api.SpanKind.INTERNAL } satisfies Record<
    SpanKindName,
    number
  >;
  const defined = (attributes: SpanAttributes = {}) =>
    Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)) as Record<string, string | number | boolean>;

  return {
    start(name, kind, parent, options = {}) {
      const context = parent.spanId
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.spanId,
            traceFlags: api.TraceFlags.SAMPLED,
            isRemote: parent.remote ?? false,
          })
        : api.ROOT_CONTEXT;
      let span: OtelSpan;
      rootTraceId = parent.spanId ? undefined : parent.traceId;
      try {
        span = tracer.startSpan(
          name,
          { kind: kinds[kind], attributes: defined(options.attributes), startTime: options.startTime },
          context,
        );
      } finally {
        rootTraceId = undefined;
      }
      let ended = false;
      return {
        spanId: span.spanContext().spanId,
        end(attributes, failed) {
          if (ended) return;
          ended = true;
          span.setAttributes(defined(attributes));
          if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
