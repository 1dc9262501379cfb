import { describe, expect, it } from "vitest";
import { createSseParser, eventFrame, formatSse } from "./events";

describe("Server-Sent Events frames", () => {
  it("round-trips a frame with id, event name and multi-line data", () => {
    const text = formatSse({ id: "7", event: "chat.message", data: "line one\nline two" });
    expect(text).toBe("id: 7\nevent: chat.message\ndata: line one\ndata: line two\n\n");
    expect(createSseParser()(text)).toEqual([{ id: "7", event: "chat.message", data: "line one\nline two" }]);
  });

  it("assembles frames split across chunks at any point", () => {
    const text =
      eventFrame({ id: 1, type: "cti.ringing", at: "2026-11-22T00:00:00Z", payload: { phone: "13800000000" } }) +
      formatSse({ event: "heartbeat", data: "" });
    const push = createSseParser();
    const frames = [...text].flatMap((char) => push(char));
    expect(frames.map((f) => f.event)).toEqual([undefined, "heartbeat"]);
    expect(frames[0].id).toBe("1");
    expect(JSON.parse(frames[0].data).payload.phone).toBe("13800000000");
    expect(frames[1].id).toBeUndefined();
  });

  it("drops comments and frames without data, and accepts CRLF", () => {
    const push = createSseParser();
    expect(push(": keep-alive\r\n\r\nid: 3\r\n\r\nid: 4\r\ndata: x\r\n\r\n")).toEqual([{ id: "4", data: "x" }]);
  });
});
