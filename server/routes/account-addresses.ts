import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import { addressLines } from "../domain/delivery-address.ts";
import { addressForm, addressValues, toDeliveryAddress } from "../forms/address-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import { isRandomId } from "../store/random-id.ts";
import type { Session } from "../store/session-repository.ts";
import { checkPostcode } from "./remote-checks.ts";

/**
 * "Mijn adressen": the account's address book, which the checkout's address step offers
 * (cart-address.ts). Adding, changing and removing work without JavaScript; an address is
 * checked as the checkout checks it (the same form, the same postcode rule).
 */
export function accountAddressesRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, addressBook } = services;
  const listPath = (request: FastifyRequest) => i18n.routes.pathFor("accountAddresses", request.locale);

  const validate = (request: FastifyRequest, values: FormValues) => {
    const t = i18n.t[request.locale];
    return addressForm.validate(
      values,
      t,
      async (field, all) => (field === "postcode" ? checkPostcode(all, t) : true),
      request.locale,
    );
  };

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    state: { values?: FormValues; errors?: FieldError[]; problem?: string } = {},
    status = 200,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const flash = status === 200 ? takeFlash<string>(request, reply, "addresses") : undefined;
    const saved = await addressBook.list(session.account.id);
    return reply.page(
      "pages/account-addresses",
      {
        title: t("account.addresses.title"),
        notice: flash === "saved" || flash === "removed" ? t(`account.addresses.${flash}`) : undefined,
        addresses: saved.map((address) => ({
          id: address.id,
          lines: addressLines(address, t(`fields.countries.${address.country}`)),
          editHref: i18n.routes.pathFor("accountAddress", locale, { address: address.id }),
          removeAction: i18n.routes.pathFor("accountAddressRemove", locale, { address: address.id }),
          editLabel: t("account.addresses.editLabel", { name: address.name, street: address.street }),
          removeLabel: t("account.addresses.removeLabel", { name: address.name, street: address.street }),
        })),
        accountForm: {
          form: addressForm,
          action: listPath(request),
          values: state.values ?? { ...addressValues(undefined, locale), email: session.account.email },
          errors: state.errors ?? [],
          submit: t("account.addresses.submit"),
          notice: state.problem,
        },
      },
      { status, noindex: true, keyedByData: true },
    );
  };

  route("accountAddresses", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    return showList(request, reply, session);
  });

  route("accountAddresses", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const t = i18n.t[request.locale];
    const values = addressForm.values(request.body);
    const errors = await validate(request, values);
    if (errors.length > 0) return showList(request, reply, session, { values, errors }, 422);
    const wait = await overClientLimit(services.limits.addresses, request, reply, "account address");
    if (wait !== undefined) {
      const problem = t("address.rateLimited", { retry: retryText(t, wait) });
      return showList(request, reply, session, { values, problem }, 429);
    }
    const db = services.database.db;
    await addressBook.save(db, session.account.id, toDeliveryAddress(values), services.now());
    writeFlash(reply, "addresses", "saved");
    return reply.redirect(listPath(request), 303);
  });

  const showEdit = (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    values: FormValues,
    errors: FieldError[] = [],
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    return reply.page(
      "pages/account-address",
      {
        title: t("account.addresses.editTitle"),
        accountForm: {
          form: addressForm,
          action: i18n.routes.pathFor("accountAddress", request.locale, { address: id }),
          values,
          errors,
          submit: t("account.addresses.submit"),
        },
      },
      { status, noindex: true },
    );
  };

  /** The address under the id in the address, if it is this account's. */
  const ownAddress = (session: Session, request: FastifyRequest) => {
    const { address } = request.params as { address: string };
    return isRandomId(address) ? addressBook.get(session.account.id, address) : Promise.resolve(undefined);
  };

  route("accountAddress", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const address = await ownAddress(session, request);
    if (!address) return reply.callNotFound();
    return showEdit(request, reply, address.id, addressValues(address, request.locale));
  });

  route("accountAddress", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const address = await ownAddress(session, request);
    if (!address) return reply.callNotFound();
    const values = addressForm.values(request.body);
    const errors = await validate(request, values);
    if (errors.length > 0) return showEdit(request, reply, address.id, values, errors, 422);
    await addressBook.update(session.account.id, address.id, toDeliveryAddress(values), services.now());
    writeFlash(reply, "addresses", "saved");
    return reply.redirect(listPath(request), 303);
  });

  route("accountAddressRemove", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const address = await ownAddress(session, request);
    // Removed already (another tab): the list shows it gone either way.
    if (address) await addressBook.remove(session.account.id, address.id);
    writeFlash(reply, "addresses", "removed");
    return reply.redirect(listPath(request), 303);
  });
}
