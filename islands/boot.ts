/**
 * The only script a page loads. It marks the page as enhanced, watches for broken
 * images from the start, and hands every hook on the page to the island runtime.
 */
import { watchImageErrors } from "./image-error/image-error.ts";
import { watchPageTransitions } from "./page-transitions.ts";
import { registry } from "./registry.ts";
import { createRuntime } from "./runtime/runtime.ts";

const root = document.documentElement;
root.classList.remove("no-js");
root.classList.add("js-enhanced");

watchImageErrors(document);
// From the start, like the image watch: pagereveal comes with the first frame.
watchPageTransitions(document);
// "ready" once every behaviour on the page has started: until then a click takes the
// no-JavaScript path, which works too; journeys wait for it to test the enhanced one.
void createRuntime(registry)
  .start()
  .then(() => root.setAttribute("data-enhanced", "ready"));
