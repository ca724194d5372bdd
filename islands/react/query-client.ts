import { QueryClient } from "@tanstack/react-query";

/**
 * The one react-query client every React island shares (one module instance: esbuild
 * puts it in a shared chunk), so a fragment fetched by one island is cached for all.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Page fragments change rarely; a modal opened twice shows at once.
      staleTime: 5 * 60_000,
      retry: 1,
      refetchOnWindowFocus: false,
    },
  },
});

/** A page's fragment, as the server answers an ajax request (X-Requested-With). */
export async function fetchFragment(url: string): Promise<string> {
  const response = await fetch(url, {
    headers: { "x-requested-with": "XMLHttpRequest", accept: "text/html" },
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}
