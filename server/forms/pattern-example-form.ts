import { countryField, emailField, nameField, newPasswordFields, postcodeField } from "./fields.ts";
import { defineForm } from "./form.ts";

/**
 * The pattern library's example form. Real forms (address, contact, sign-up) are
 * defined the same way, in a module of their own.
 */
export const patternExampleForm = defineForm({
  id: "example",
  fields: [
    nameField,
    emailField,
    countryField,
    postcodeField,
    ...newPasswordFields({ password: "fields.password", confirm: "fields.passwordConfirm" }),
  ],
});
