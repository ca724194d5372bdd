import { plans } from "../domain/subscription-plans.ts";
import { countryField, emailField, nameField, newPasswordFields } from "./fields.ts";
import { defineForm } from "./form.ts";

/**
 * Signing up for the photo subscription. Whether the address already has a subscription
 * is never checked while typing or said on the page: the database's unique key keeps it
 * to one, and the address's owner hears of a second try by mail (ADR 0075).
 */
const planField = {
  name: "plan",
  control: "select" as const,
  label: "subscription.fields.plan",
  options: plans.map((plan) => ({ value: plan.id, label: `subscription.plans.${plan.id}.name` })),
  rules: [{ rule: "required" as const }],
};

/**
 * Where the subscriber lives: the fee is an electronic service, taxed there (ADR 0110). The
 * page preselects the country of its language, and asks because the two can differ.
 */
const residenceField = {
  ...countryField,
  label: "subscription.fields.country",
  hint: "subscription.fields.countryHint",
};

export const subscriptionForm = defineForm({
  id: "subscription",
  fields: [
    planField,
    residenceField,
    { ...nameField, label: "subscription.fields.name" },
    {
      ...emailField,
      label: "subscription.fields.email",
      hint: "subscription.fields.emailHint",
    },
    ...newPasswordFields({
      password: "subscription.fields.password",
      confirm: "subscription.fields.passwordConfirm",
    }),
  ],
});

/** A subscriber who moved, on the account's subscription page: the next invoices take the new country's VAT. */
export const subscriptionCountryForm = defineForm({
  id: "subscription-country",
  fields: [{ ...residenceField, hint: "account.subscription.countryChangeHint" }],
});

/** A signed-in account takes out the subscription with the plan and the country alone: it is who, and its address is confirmed. */
export const subscriptionPlanForm = defineForm({
  id: "subscription-plan",
  fields: [planField, residenceField],
});
