import type { FastifyInstance } from "fastify";
import { isDeliveryCountry, normalizePostcode } from "../domain/postcode.ts";
import type { FormValues } from "../forms/form.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import type { Translate } from "../i18n/translate.ts";

/**
 * Is this postcode valid for the chosen country? The same function answers the
 * browser's remote check and the server's check of the submitted form.
 */
export function checkPostcode(values: FormValues, t: Translate): true | string {
  const country = values.country ?? "";
  if (!isDeliveryCountry(country)) return true; // the country field reports its own error
  return normalizePostcode(country, values.postcode ?? "") ? true : t(`postcode.invalid${country}`);
}

/** Remote-check endpoints: JSON true, or the message to show. Rate limited per client. */
export function remoteCheckRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n } = services;
  route(
    "postcodeCheck",
    "GET",
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const values = {
        postcode: typeof query.postcode === "string" ? query.postcode.slice(0, 20) : "",
        country: typeof query.country === "string" ? query.country : "",
      };
      reply.header("cache-control", "no-store");
      return reply
        .type("application/json")
        .send(JSON.stringify(checkPostcode(values, i18n.t[request.locale])));
    },
    { rateLimit: { max: 120, timeWindow: "1 minute" } },
  );
}
