/** Methods HTML forms and proxies pass through; others travel as POST with an override header. */
const proxySafe = new Set(["GET", "POST"]);

export interface AjaxRequest {
  url: string;
  method: string;
  body?: FormData;
  csrfToken?: string | undefined;
}

export function buildFetch({ url, method, body, csrfToken }: AjaxRequest): {
  url: string;
  init: RequestInit;
} {
  const wanted = (method || "GET").toUpperCase();
  const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest", Accept: "text/html" };
  const sent = proxySafe.has(wanted) ? wanted : "POST";
  if (sent !== wanted) headers["X-HTTP-Method-Override"] = wanted;
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;

  if (sent === "GET") {
    const target = new URL(url, document.baseURI);
    if (body) {
      for (const [key, value] of body) if (typeof value === "string") target.searchParams.append(key, value);
    }
    return { url: target.toString(), init: { method: "GET", headers, credentials: "same-origin" } };
  }
  const multipart = body && [...body.values()].some((v) => typeof v !== "string");
  let payload: BodyInit | undefined;
  if (body && multipart) payload = body;
  else if (body) payload = new URLSearchParams(body as unknown as Record<string, string>);
  return { url, init: { method: sent, headers, body: payload, credentials: "same-origin" } };
}
