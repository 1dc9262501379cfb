import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import { callsInListAnswer, watchMediaServer } from "./media-server";

/** A stand-in for rtpengine's control port on loopback: answers `list` with `calls`, as rtpengine does. */
async function fakeRtpengine(calls: string[], port = 0): Promise<{ socket: Socket; port: number }> {
  const socket = createSocket("udp4");
  socket.on("message", (message, from) => {
    const [cookie, body] = message.toString().split(" ");
    const list = calls.map((id) => `${Buffer.byteLength(id)}:${id}`).join("");
    if (body === "d7:command4:liste") socket.send(`${cookie} d5:callsl${list}e6:result2:oke`, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  return { socket, port: socket.address().port };
}

describe("rtpengine's answer to list", () => {
  it("names the calls it carries, none when it carries none, and is not read from anything else", () => {
    expect(callsInListAnswer("1 d5:callsl3:abc11:x@127.0.0.1e6:result2:oke")).toEqual(new Set(["abc", "x@127.0.0.1"]));
    expect(callsInListAnswer("1 d5:callsle6:result2:oke")).toEqual(new Set());
    expect(callsInListAnswer("1 d6:result5:error12:error-reason15:Unknown call-ide")).toBeNull();
  });
});

describe("watching the media server", () => {
  const stops: Array<() => void> = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it("tells the calls it carries; null once it stops answering; its calls again once it answers again", async () => {
    let server = await fakeRtpengine(["call-1@host", "call-2@host"]);
    const { port } = server;
    const seen: Array<Set<string> | null> = [];
    const watch = watchMediaServer(`127.0.0.1:${port}`, (carried) => seen.push(carried), 50);
    stops.push(() => watch.stop());

    await expect.poll(() => seen.length).toBeGreaterThan(3);
    expect(seen).not.toContain(null);
    expect(seen.at(-1)).toEqual(new Set(["call-1@host", "call-2@host"]));

    await new Promise<void>((resolve) => server.socket.close(resolve));
    await expect.poll(() => seen.at(-1), { timeout: 2_000 }).toBeNull();

    // Started again, without the calls it carried.
    server = await fakeRtpengine([], port);
    stops.push(() => server.socket.close());
    await expect.poll(() => seen.at(-1), { timeout: 2_000 }).toEqual(new Set());
  });
});
