import { z } from "zod";
import { type BrowserContract, contractProblem, type ShapeField, type ShapeType } from "./contract-check.ts";

/**
 * A hook's contract, declared once with zod: the parameters its partial takes and what its
 * island or behaviour reads from the element. The server checks a partial's parameters
 * when it renders (server/http/rendering/template-contracts.ts), the runtime checks the element when
 * it mounts (contract-check.ts). zod stays on the server: the build replaces each
 * contract module with the compact `browser` shape computed here (scripts/build-config.mjs).
 */
export interface HookContractInput<
  Params extends z.ZodObject = z.ZodObject,
  Props extends z.ZodObject = z.ZodObject,
> {
  hook: string;
  kind: "island" | "behaviour";
  /** For editors: when to use it, one or two sentences. */
  whenToUse: string;
  /**
   * The partial that writes the hook's markup (views/partials/<name>.eta) and where its
   * parameters sit in the include's data: `include("/partials/tooltip", it.with({ tooltip: {…} }))`
   * has key "tooltip". Attribute-only behaviours (analytics, ajax) have no partial.
   */
  partial?: { name: string; key: string; params: Params };
  /** JSON props the island reads from data-props: its settings and texts, one way for every island. */
  props?: Props;
  /** data-* attributes read from the hook's element (behaviours' whole interface). */
  attributes?: z.ZodObject;
  /** Elements inside the island it needs, by selector, with what each is for. */
  parts?: Record<string, { required: boolean; description: string }>;
  /**
   * data-* attributes the hook's companions carry elsewhere on the page (the section a modal
   * shows, written by partials/modal-source), with what each is for: known to the template
   * check and listed in the hooks reference, but not checked on the hook's own element.
   */
  companions?: Record<string, string>;
}

export interface HookContract<
  Params extends z.ZodObject = z.ZodObject,
  Props extends z.ZodObject = z.ZodObject,
> extends HookContractInput<Params, Props> {
  browser: BrowserContract;
  /** The runtime's check of an element (islands/runtime/runtime.ts). */
  problem(element: HTMLElement): string | undefined;
}

export function defineHook<Params extends z.ZodObject = z.ZodObject, Props extends z.ZodObject = z.ZodObject>(
  input: HookContractInput<Params, Props>,
): HookContract<Params, Props> {
  const attributes: BrowserContract["attributes"] = {};
  for (const [name, schema] of Object.entries(input.attributes?.shape ?? {})) {
    const field = shapeField(schema as z.ZodType);
    // An optional attribute of any value can never fail the check: the browser need not know it.
    if (field[2] !== undefined) attributes[name] = [field[1], field[2] as unknown as string[]];
    else if (field[1]) attributes[name] = [true];
  }
  const parts: BrowserContract["parts"] = {};
  for (const [selector, part] of Object.entries(input.parts ?? {})) if (part.required) parts[selector] = true;
  const browser: BrowserContract = {
    hook: input.hook,
    ...(input.props ? { props: objectShape(input.props) } : {}),
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    ...(Object.keys(parts).length > 0 ? { parts } : {}),
  };
  return { ...input, browser, problem: (element) => contractProblem(browser, element) };
}

/** The props an island gets, typed against its contract: routes build them through this. */
export type PropsOf<C> = C extends HookContract<z.ZodObject, infer P> ? z.input<P> : never;
export type ParamsOf<C> = C extends HookContract<infer P, z.ZodObject> ? z.input<P> : never;

function unwrap(schema: z.ZodType): { inner: z.ZodType; required: boolean } {
  let inner = schema;
  let required = true;
  for (;;) {
    const def = inner._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) {
      required = false;
      inner = def.innerType;
    } else if ((def.type === "readonly" || def.type === "nonoptional") && def.innerType) {
      inner = def.innerType;
    } else {
      return { inner, required };
    }
  }
}

function objectShape(schema: z.ZodObject): Record<string, ShapeField> {
  const out: Record<string, ShapeField> = {};
  for (const [key, field] of Object.entries(schema.shape)) out[key] = shapeField(field as z.ZodType);
  return out;
}

function shapeField(schema: z.ZodType): ShapeField {
  const { inner, required } = unwrap(schema);
  const def = inner._zod.def as { type: string; entries?: Record<string, string>; values?: unknown[] };
  if (def.type === "object") return ["object", required, objectShape(inner as z.ZodObject)];
  if (def.type === "enum") return ["string", required, Object.values(def.entries ?? {})];
  if (def.type === "literal") return [typeof def.values?.[0] as ShapeType, required, def.values?.map(String)];
  const simple: Record<string, ShapeType> = {
    string: "string",
    number: "number",
    int: "number",
    boolean: "boolean",
    array: "array",
    record: "object",
    tuple: "array",
  };
  return [simple[def.type] ?? "any", required];
}

/** One line per parameter, for the pattern library and the hooks reference. */
export interface ParameterRow {
  name: string;
  type: string;
  required: boolean;
  defaultValue?: string;
  description: string;
}

export function parameterRows(schema: z.ZodObject | undefined, prefix = ""): ParameterRow[] {
  if (!schema) return [];
  const rows: ParameterRow[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const zodField = field as z.ZodType;
    const { inner, required } = unwrap(zodField);
    const def = zodField._zod.def as { type: string; defaultValue?: unknown };
    rows.push({
      name: `${prefix}${key}`,
      type: typeName(inner),
      required,
      ...(def.type === "default" ? { defaultValue: JSON.stringify(def.defaultValue) } : {}),
      description: zodField.description ?? inner.description ?? "",
    });
    if ((inner._zod.def as { type: string }).type === "object")
      rows.push(...parameterRows(inner as z.ZodObject, `${prefix}${key}.`));
  }
  return rows;
}

function typeName(schema: z.ZodType): string {
  const def = schema._zod.def as {
    type: string;
    entries?: Record<string, string>;
    element?: z.ZodType;
    values?: unknown[];
    options?: z.ZodType[];
  };
  switch (def.type) {
    case "enum":
      return Object.values(def.entries ?? {})
        .map((v) => `"${v}"`)
        .join(" | ");
    case "literal":
      return (def.values ?? []).map((v) => JSON.stringify(v)).join(" | ");
    case "array":
      return def.element ? `${typeName(unwrap(def.element).inner)}[]` : "array";
    case "union":
      return (def.options ?? []).map((o) => typeName(o)).join(" | ");
    case "object":
      return "object";
    case "custom":
      return schema.description?.match(/^\((\w+)\)/)?.[1] ?? "value";
    default:
      return def.type;
  }
}

/** A zod issue as an editor reads it: the parameter's path and what is wrong with it. */
export interface ParameterProblem {
  parameter: string;
  message: string;
}

export function parameterProblems(schema: z.ZodType, value: unknown, key: string): ParameterProblem[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): ParameterProblem[] => {
    const path = [key, ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((unknownKey) => ({
        parameter: `${path}.${unknownKey}`,
        message: `unknown parameter "${path}.${unknownKey}"`,
      }));
    }
    const received = issue.code === "invalid_type" ? issue.message.match(/received (\w+)/)?.[1] : undefined;
    if (received === "undefined")
      return [{ parameter: path, message: `missing required parameter "${path}"` }];
    return [{ parameter: path, message: `parameter "${path}": ${issue.message}` }];
  });
}

export { z };
