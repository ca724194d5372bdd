/**
 * Remote checks: GET the field's data-val-remote-url with its value (and any additional
 * fields). `true` means valid, a string is the message to show, anything else the rule's
 * message. Answers are cached per query, and a newer check aborts the older one. A check
 * that fails to answer counts as valid: the server decides on submit.
 */
export type RemoteAnswer = { valid: true } | { valid: false; message: string | undefined };

const cache = new Map<string, RemoteAnswer>();
const running = new WeakMap<Element, AbortController>();

export async function checkRemote(
  field: Element,
  url: string,
  query: URLSearchParams,
): Promise<RemoteAnswer> {
  const target = new URL(url, document.baseURI);
  for (const [k, v] of query) target.searchParams.set(k, v);
  const key = target.toString();
  const cached = cache.get(key);
  if (cached) return cached;

  running.get(field)?.abort();
  const controller = new AbortController();
  running.set(field, controller);
  try {
    const response = await fetch(key, {
      headers: { accept: "application/json", "x-requested-with": "XMLHttpRequest" },
      signal: controller.signal,
    });
    if (!response.ok) return { valid: true };
    const answer: unknown = await response.json();
    const result: RemoteAnswer =
      answer === true || answer === "true"
        ? { valid: true }
        : { valid: false, message: typeof answer === "string" && answer ? answer : undefined };
    cache.set(key, result);
    return result;
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    return { valid: true };
  } finally {
    if (running.get(field) === controller) running.delete(field);
  }
}
