import { readProps } from "./props.ts";

export type ShapeType = "string" | "number" | "boolean" | "array" | "object" | "any";
/** A field's type, whether it must be there, and its nested shape (objects) or allowed values (enums). */
export type ShapeField = readonly [ShapeType, boolean, (Record<string, ShapeField> | string[])?];

/**
 * What the browser knows of a hook's contract: computed from the zod declaration at build
 * time, so the check costs a few hundred bytes instead of shipping zod. Written tersely on
 * purpose: it travels with every page that has a hook.
 */
export interface BrowserContract {
  hook: string;
  props?: Record<string, ShapeField>;
  /** Attribute name: [required, allowed values?]. */
  attributes?: Record<string, readonly [boolean, string[]?]>;
  /** Selector of an element inside the hook's element: required. */
  parts?: Record<string, boolean>;
}

/** "data-props.count is missing" or undefined. */
function shapeProblem(
  shape: Record<string, ShapeField>,
  value: unknown,
  path: string,
): string | false | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return `${path} is not an object`;
  for (const key in shape) {
    const [type, required, inner] = shape[key] as ShapeField;
    const field = (value as Record<string, unknown>)[key];
    const name = `${path}.${key}`;
    const problem =
      field == null
        ? required && `${name} is missing`
        : type !== "any" && (Array.isArray(field) ? "array" : typeof field) !== type
          ? `${name} is not ${type}`
          : Array.isArray(inner)
            ? !inner.includes(String(field)) && `${name} is not one of ${inner}`
            : inner && shapeProblem(inner, field, name);
    if (problem) return problem;
  }
}

/** The first way the element breaks its hook's contract, in words for the console; undefined when it keeps it. */
export function contractProblem(contract: BrowserContract, element: HTMLElement): string | undefined {
  const { attributes = {}, parts = {}, props } = contract;
  for (const name in attributes) {
    const [required, values] = attributes[name] as readonly [boolean, string[]?];
    const value = element.getAttribute(name);
    if (value == null ? required : values && !values.includes(value))
      return `attribute ${name}${value == null ? " is missing" : `="${value}" is not one of ${values}`}`;
  }
  for (const selector in parts)
    if (parts[selector] && !element.querySelector(selector)) return `${selector} is missing inside`;
  if (props) {
    let value: unknown;
    try {
      value = readProps(element);
    } catch {
      return "data-props is not JSON";
    }
    return shapeProblem(props, value, "data-props") || undefined;
  }
}
