import type { FastifyInstance } from "fastify";
import type { CartRepository } from "../store/cart-repository.ts";
import { cartLifetimeSeconds } from "./cart-cookie.ts";

/** Often enough that the table never holds much more than its live carts. */
const everyMs = 6 * 60 * 60 * 1000;

/**
 * Deletes carts nobody changed for as long as their cookie lives (so no browser can still
 * name them), with their lines and address: once when the app is ready, then every few
 * hours. Several instances may do this at once; the repository lets one of them work.
 * A failure is logged and tried again next time: it never stops the shop.
 */
export function scheduleCartCleanup(app: FastifyInstance, carts: CartRepository): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const run = () => {
    running ??= carts
      .deleteAbandoned(new Date(Date.now() - cartLifetimeSeconds * 1000))
      .then(
        (deleted) => {
          if (deleted > 0) app.log.info({ deleted }, "abandoned carts deleted");
        },
        (err: unknown) => app.log.warn({ err }, "abandoned carts could not be deleted"),
      )
      .finally(() => {
        running = undefined;
      });
  };

  app.addHook("onReady", async () => {
    // Not awaited: a large first clean-up must not hold up start-up.
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(timer);
    // The database closes after the app: let a clean-up in flight finish first.
    await running;
  });
}
