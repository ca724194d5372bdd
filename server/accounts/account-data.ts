import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { isOrderStatus, isPaid } from "../domain/order-lifecycle.ts";
import { orderNumber } from "../domain/order-number.ts";
import type { Services } from "../http/services.ts";
import { removeMailFiles } from "../mail/mail-files.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { eraseAccountMails } from "../mail/outbox-erasure.ts";
import { type Account, emailKey } from "../store/account-repository.ts";
import { eraseContactMessages } from "../store/contact-repository.ts";
import { orderLifecycleRepository } from "../store/order-lifecycle-repository.ts";
import type { Schema } from "../store/schema.ts";
import { removePhotoFiles } from "../uploads/photo-storage.ts";

/**
 * What the AVG/DSGVO gives an account: all its data to take away (export), and its end
 * (erase). Orders are the shop's books and stay, without who placed them.
 */

/** Everything the shop keeps of an account, as one JSON document (plain values, no secrets). */
export async function exportAccount(services: Services, account: Account): Promise<Record<string, unknown>> {
  const db = services.database.db;
  const lifecycle = orderLifecycleRepository(db);
  const orderRows = await db
    .selectFrom("orders")
    .select("id")
    .where("account_id", "=", account.id)
    .orderBy("id")
    .execute();
  const orders = [];
  for (const { id } of orderRows) {
    const order = await services.orders.get(Number(id));
    if (!order) continue;
    orders.push({
      number: orderNumber(order.id),
      placedAt: order.createdAt,
      status: order.status,
      language: order.locale,
      address: order.address,
      lines: order.lines.map((line) => ({
        product: line.productName,
        productId: line.productId,
        orientation: line.orientation,
        size: line.sizeId,
        quantity: line.quantity,
        unitCents: line.unitCents,
        totalCents: line.totalCents,
      })),
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      vatCents: order.vatCents,
      totalCents: order.totalCents,
      history: (await lifecycle.transitionsOf(order.id)).map(({ from, to, at }) => ({ from, to, at })),
    });
  }
  const subscription = await services.subscriptions.forAccount(account.id);
  const [uploads, projects, addresses] = await Promise.all([
    services.uploads.listByOwner(account.ownerId),
    services.projects.listByOwner(account.ownerId),
    services.addressBook.list(account.id),
  ]);
  return {
    exportedAt: services.now().toISOString(),
    account: {
      name: account.name,
      email: account.email,
      language: account.locale,
      createdAt: account.createdAt,
      emailConfirmedAt: account.emailConfirmedAt ?? null,
    },
    addresses: addresses.map(({ id: _id, ...address }) => address),
    orders,
    subscription: subscription
      ? {
          plan: subscription.planId,
          status: subscription.status,
          monthlyCents: subscription.monthlyCents,
          offer: subscription.offer ?? null,
          since: subscription.createdAt,
          paidUntil: subscription.paidUntil ?? null,
        }
      : null,
    photoProjects: projects.map((project) => ({
      product: project.productId,
      orientation: project.orientation,
      size: project.sizeId,
      photos: project.photoCount,
      createdAt: project.createdAt,
      updatedAt: project.updatedAt,
    })),
    photos: uploads.map((upload) => ({
      name: upload.originalName,
      format: upload.format,
      width: upload.width,
      height: upload.height,
      bytes: upload.bytes,
      uploadedAt: upload.createdAt,
      inProject: upload.projectId !== undefined,
    })),
  };
}

export type DeletionResult = { kind: "deleted" } | { kind: "blocked"; orderNumber: string };

/**
 * Deletes the account: its sessions, links, addresses, photos and projects (rows, then
 * files), its cart, and its sign-ups; its subscription is cancelled, its mandate revoked,
 * and the row kept without it; its orders are kept for the books without name, address,
 * e-mail and phone, and those still waiting for payment are cancelled. Its mails and its orders' mails are erased (rows kept
 * without content, then .eml files), those still queued too: they are never sent; so are
 * the contact messages sent from its address, rows and mails (ADR 0094). The
 * goodbye mail is queued after that and names only the address it goes to. An order paid
 * but not yet shipped still needs its address and photos: while there is one, nothing is
 * deleted.
 */
export async function eraseAccount(
  services: Services,
  account: Account,
  goodbye: OutgoingMail,
  log: Pick<FastifyBaseLogger, "warn">,
): Promise<DeletionResult> {
  const db = services.database.db;
  const at = services.now();
  const orders = await db
    .selectFrom("orders")
    .select(["id", "status"])
    .where("account_id", "=", account.id)
    .execute();
  const underway = orders.find((o) => isOrderStatus(o.status) && isPaid(o.status) && o.status !== "shipped");
  if (underway) return { kind: "blocked", orderNumber: orderNumber(Number(underway.id)) };

  const lifecycle = orderLifecycleRepository(db);
  for (const order of orders.filter((o) => o.status === "awaiting_payment")) {
    await lifecycle.applyOrderEvent(Number(order.id), { type: "order_cancelled" }, at);
  }
  const subscription = await services.subscriptions.forAccount(account.id);
  if (subscription) {
    await services.subscriptions.applyEvent(subscription.id, { type: "cancelled" }, at);
    // Ended for good: the provider forgets the mandate, so nothing can be charged on it again.
    const { customerId, mandateId } = subscription;
    if (customerId && mandateId)
      await services.payments
        .revokeMandate({ customerId, mandateId })
        .catch((err: unknown) =>
          log.warn(
            { err, subscription: subscription.id },
            "account deletion: mandate not revoked; revoke it by hand",
          ),
        );
  }

  const orderIds = orders.map((o) => Number(o.id));
  const { uploads, mails } = await db.transaction().execute(async (trx) => {
    const mails = [
      ...(await eraseAccountMails(
        trx,
        { accountId: account.id, orderIds, emailKey: emailKey(account.email) },
        at,
      )),
      // Sent from its address: the one address the shop knows for certain was the account's.
      ...(await eraseContactMessages(trx, [emailKey(account.email)], at)),
    ];
    const uploads = await removeOwnRows(trx, account, orderIds);
    await enqueueMail(trx, goodbye, at);
    return { uploads, mails };
  });
  services.mailQueued();
  // Their rows say nothing any more; a file left behind is logged, as for photos.
  await removeMailFiles(services.mailFolder, mails).catch((err: unknown) =>
    log.warn({ err }, "account deletion: mail files not deleted"),
  );
  for (const id of uploads) {
    // Its row is gone already: no page shows it, whatever happens to its files.
    await removePhotoFiles(services.photoStorage, id).catch((err: unknown) =>
      log.warn({ err, upload: id }, "account deletion: photo files not deleted"),
    );
  }
  return { kind: "deleted" };
}

/** The rows of the account, in one transaction; answers the photos whose files go next. */
async function removeOwnRows(trx: Kysely<Schema>, account: Account, orderIds: number[]): Promise<string[]> {
  if (orderIds.length > 0) {
    await trx
      .updateTable("orders")
      .set({ name: "", street: "", postcode: "", city: "", email: "", phone: null, account_id: null })
      .where("id", "in", orderIds)
      .execute();
    // The books keep what was ordered; the photos of a book go with the account.
    await trx
      .updateTable("order_lines")
      .set({ project_id: null })
      .where("order_id", "in", orderIds)
      .execute();
  }
  if (account.cartId) await trx.deleteFrom("carts").where("id", "=", account.cartId).execute();
  const uploads = await trx
    .selectFrom("uploads")
    .select("id")
    .where("owner_id", "=", account.ownerId)
    .execute();
  await trx.deleteFrom("uploads").where("owner_id", "=", account.ownerId).execute();
  const projects = trx.selectFrom("photo_projects").select("id").where("owner_id", "=", account.ownerId);
  await trx.deleteFrom("cart_lines").where("project_id", "in", projects).execute();
  await trx
    .updateTable("order_lines")
    .set({ project_id: null })
    .where("project_id", "in", projects)
    .execute();
  await trx.deleteFrom("photo_projects").where("owner_id", "=", account.ownerId).execute();
  await trx.deleteFrom("signups").where("email_key", "=", emailKey(account.email)).execute();
  await trx
    .updateTable("subscriptions")
    .set({ owner_id: null })
    .where("account_id", "=", account.id)
    .execute();
  // Sessions, links and addresses go with it (their foreign keys cascade); the subscription stays, without it.
  await trx.deleteFrom("accounts").where("id", "=", account.id).execute();
  return uploads.map((u) => u.id);
}
