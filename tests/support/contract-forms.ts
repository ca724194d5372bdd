import { expect } from "vitest";
import type { Shopper } from "./shopper.ts";

/** The public cancellation and withdrawal forms' addresses, per kind and language. */
export const contractPaths = {
  cancel: {
    nl: { form: "/opzeggen", check: "/opzeggen/controleren", received: "/opzeggen/ontvangen" },
    de: { form: "/kuendigen", check: "/kuendigen/pruefen", received: "/kuendigen/eingegangen" },
  },
  withdraw: {
    nl: { form: "/herroepen", check: "/herroepen/controleren", received: "/herroepen/ontvangen" },
    de: { form: "/widerrufen", check: "/widerrufen/pruefen", received: "/widerrufen/eingegangen" },
  },
} as const;

/**
 * A request sent as a browser without JavaScript sends it: the form, its check page, the
 * button; answers the page after it.
 */
export async function sendContractRequest(
  s: Shopper,
  kind: "cancel" | "withdraw",
  lang: "nl" | "de",
  fields: Record<string, string>,
) {
  const paths = contractPaths[kind][lang];
  await s.get(paths.form);
  const step1 = await s.post(paths.form, fields);
  expect(step1.statusCode).toBe(303);
  expect(step1.headers.location).toBe(paths.check);
  const check = await s.get(paths.check);
  expect(check.statusCode).toBe(200);
  const sent = await s.post(paths.check, {});
  expect(sent.statusCode).toBe(303);
  expect(sent.headers.location).toBe(paths.received);
  return s.get(paths.received);
}
