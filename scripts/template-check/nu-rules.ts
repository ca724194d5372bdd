import { type DOMReadyEvent, type Plugin, Rule, type RuleDocumentation } from "html-validate";

/**
 * Two conformance requirements the Nu HTML Checker enforces and html-validate does not,
 * both found on the shop's pages before: its rules, so they stay fixed.
 */

/** HTML: the sizes attribute describes the widths in srcset, so without srcset it may not be there. */
class SizesNeedsSrcset extends Rule {
  override documentation(): RuleDocumentation {
    return {
      description: "`sizes` may only be given together with `srcset`.",
      url: "https://html.spec.whatwg.org/multipage/embedded-content.html#attr-img-sizes",
    };
  }

  override setup(): void {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      for (const element of event.document.querySelectorAll("img[sizes], source[sizes]")) {
        if (element.hasAttribute("srcset")) continue;
        const sizes = element.getAttribute("sizes");
        this.report(element, `<${element.tagName}> has "sizes" without "srcset"`, sizes?.keyLocation);
      }
    });
  }
}

/** Elements whose role is generic: ARIA in HTML forbids naming them. */
const genericElements = ["div", "span", "b", "i", "u", "s", "small", "bdi", "bdo", "data"];

/**
 * ARIA in HTML: aria-label and aria-labelledby are prohibited on an element whose role is
 * generic. html-validate lets a tabindex excuse it; the Nu checker (and the spec) does not.
 */
class NamingOfGenericElements extends Rule {
  override documentation(): RuleDocumentation {
    return {
      description:
        "`aria-label` and `aria-labelledby` may not be used on an element without a role (div, span…): give it a role (region, group, alert…) or drop the name.",
      url: "https://www.w3.org/TR/html-aria/#docconformance-naming",
    };
  }

  override setup(): void {
    this.on("dom:ready", (event: DOMReadyEvent) => {
      const selector = genericElements.map((tag) => `${tag}[aria-label], ${tag}[aria-labelledby]`).join(", ");
      for (const element of event.document.querySelectorAll(selector)) {
        if (element.hasAttribute("role")) continue;
        const named = element.getAttribute("aria-labelledby") ?? element.getAttribute("aria-label");
        const attribute = named?.key ?? "aria-label";
        this.report(
          element,
          `"${attribute}" cannot be used on a <${element.tagName}> without a role`,
          named?.keyLocation,
        );
      }
    });
  }
}

export const nuRulesPlugin: Plugin = {
  name: "nu",
  rules: {
    "nu/sizes-needs-srcset": SizesNeedsSrcset,
    "nu/no-naming-generic": NamingOfGenericElements,
  },
};

export const nuRules = { "nu/sizes-needs-srcset": "error", "nu/no-naming-generic": "error" } as const;
