/**
 * The only script a page loads. It marks the page as enhanced, watches for broken
 * images from the start, and hands every hook on the page to the island runtime.
 */
import { watchImageErrors } from "./image-error/image-error.ts";
import { registry } from "./registry.ts";
import { createRuntime } from "./runtime/runtime.ts";

const root = document.documentElement;
root.classList.remove("no-js");
root.classList.add("js-enhanced");

watchImageErrors(document);
void createRuntime(registry).start();
