import { emailField, nameField, newPasswordFields } from "./fields.ts";
import { defineForm, type FieldDefinition } from "./form.ts";

/**
 * The forms of an account: signing in, making one, a forgotten or changed password, a new
 * address, "save my details" after an order, and deleting it. New passwords take the
 * spec's rule and strength meter (newPasswordFields), as the subscription's sign-up does.
 */

const accountEmail: FieldDefinition = { ...emailField, label: "account.fields.email", hint: undefined };

/** The password that opens the account, as it is: no rule beyond being given. */
const currentPassword = (label: string): FieldDefinition => ({
  name: "password",
  type: "password",
  label,
  autocomplete: "current-password",
  rules: [{ rule: "required" }, { rule: "maxlength", params: { max: 200 } }],
});

export const signInForm = defineForm({
  id: "sign-in",
  fields: [{ ...accountEmail, autocomplete: "username" }, currentPassword("account.fields.password")],
});

export const accountCreateForm = defineForm({
  id: "account-create",
  fields: [
    { ...nameField, label: "account.fields.name" },
    accountEmail,
    ...newPasswordFields({
      password: "account.fields.newPassword",
      confirm: "account.fields.passwordConfirm",
    }),
  ],
});

export const passwordForgottenForm = defineForm({ id: "password-forgotten", fields: [accountEmail] });

export const passwordResetForm = defineForm({
  id: "password-reset",
  fields: newPasswordFields({
    password: "account.fields.newPasswordChange",
    confirm: "account.fields.newPasswordConfirm",
  }),
});

export const passwordChangeForm = defineForm({
  id: "password-change",
  fields: [
    { ...currentPassword("account.fields.currentPassword"), name: "currentPassword" },
    ...newPasswordFields({
      password: "account.fields.newPasswordChange",
      confirm: "account.fields.newPasswordConfirm",
    }),
  ],
});

export const emailChangeForm = defineForm({
  id: "email-change",
  fields: [
    { ...accountEmail, label: "account.fields.newEmail" },
    { ...currentPassword("account.fields.currentPassword"), name: "currentPassword" },
  ],
});

/** After an order: the order gives name and address, the shopper a password. */
export const saveDetailsForm = defineForm({
  id: "save-details",
  fields: newPasswordFields({
    password: "account.fields.newPassword",
    confirm: "account.fields.passwordConfirm",
  }),
});

export const accountDeleteForm = defineForm({
  id: "account-delete",
  fields: [{ ...currentPassword("account.fields.currentPassword"), name: "currentPassword" }],
});
