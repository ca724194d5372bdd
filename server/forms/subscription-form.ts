import { plans } from "../domain/subscription-plans.ts";
import { emailField, nameField, newPasswordFields } from "./fields.ts";
import { defineForm } from "./form.ts";

/**
 * Signing up for the photo subscription. The email address must not have a
 * subscription yet: checked while typing (remote rule) and again on submit, and the
 * database's unique key settles two sign-ups that race.
 */
export const subscriptionForm = defineForm({
  id: "subscription",
  fields: [
    {
      name: "plan",
      control: "select",
      label: "subscription.fields.plan",
      options: plans.map((plan) => ({ value: plan.id, label: `subscription.plans.${plan.id}.name` })),
      rules: [{ rule: "required" }],
    },
    { ...nameField, label: "subscription.fields.name" },
    {
      ...emailField,
      label: "subscription.fields.email",
      hint: "subscription.fields.emailHint",
      rules: [
        ...emailField.rules,
        {
          rule: "remote",
          message: "subscription.emailTaken",
          params: { url: "route:subscriptionEmailCheck" },
        },
      ],
    },
    ...newPasswordFields({
      password: "subscription.fields.password",
      confirm: "subscription.fields.passwordConfirm",
    }),
  ],
});
