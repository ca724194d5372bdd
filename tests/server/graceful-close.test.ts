import { Agent, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

function get(port: number, path: string, agent: Agent) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    })
      .once("error", reject)
      .end();
  });
}

describe("when the shop shuts down with a shopper's request in flight", () => {
  it("finishes the request, tells the browser to close the connection, and stops without waiting for keep-alive", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    shop = await testShop({
      beforeReady: (app) =>
        app.get("/slow", async () => {
          arrived();
          await held;
          return "done";
        }),
    });
    await shop.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = shop.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true });

    const before = await get(port, "/healthz", agent);
    expect(before.connection).toBe("keep-alive");

    const answer = get(port, "/slow", agent);
    await inFlight;
    const closing = shop.app.close();
    // close() runs its preClose hooks on a later tick; the answer is sent after that.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await answer).toEqual({ status: 200, connection: "close" });
    // The keep-alive timeout is 72 s; the test's own timeout is far shorter.
    await closing;
    agent.destroy();
    shop = undefined;
  });
});
