import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { DeliveryOverview } from "../../server/domain/delivery-overview.ts";
import type { DeliveryTimesProps, DeliveryTimesTexts } from "./contract.ts";
import { isUsableOverview, msUntilRefetch, msUntilStale } from "./refresh.ts";

async function fetchOverview(endpoint: string, signal: AbortSignal): Promise<DeliveryOverview> {
  const response = await fetch(endpoint, { headers: { accept: "application/json" }, signal });
  if (!response.ok) throw new Error(`delivery times: HTTP ${response.status}`);
  const data: unknown = await response.json();
  if (!isUsableOverview(data)) throw new Error("delivery times: an answer without times");
  return data;
}

/** The same markup as views/partials/delivery-times.eta, so taking over the server's table shifts nothing. */
function OverviewTables({ overview, texts }: { overview: DeliveryOverview; texts: DeliveryTimesTexts }) {
  return (
    <>
      <p className="delivery-times__order-before" aria-live="polite">
        {overview.orderBefore}
      </p>
      {overview.groups.map((group) => (
        <section
          className="delivery-times__group"
          aria-labelledby={`delivery-group-${group.id}`}
          key={group.id}
        >
          <h2 id={`delivery-group-${group.id}`}>{group.name}</h2>
          <table className="delivery-table">
            <caption className="visually-hidden">
              {group.name}: {overview.orderBefore}
            </caption>
            <thead className="delivery-table__head">
              <tr>
                <th scope="col">{texts.production}</th>
                <th scope="col">{texts.sent}</th>
                <th scope="col">{texts.delivered}</th>
              </tr>
            </thead>
            {group.rows.map((row) => (
              <tbody key={row.productId}>
                <tr className="delivery-table__product">
                  <th scope="rowgroup" colSpan={3}>
                    <a href={row.href}>{row.name}</a>
                  </th>
                </tr>
                {row.options.map((option) => (
                  <tr
                    className={`delivery-table__option delivery-table__option--${option.kind}`}
                    key={option.kind}
                  >
                    <th scope="row">
                      <span className="delivery-table__kind">{option.label}</span>{" "}
                      <span className="delivery-table__days">{option.days}</span>
                      {option.surcharge ? (
                        <>
                          {" "}
                          <span className="delivery-table__surcharge">{option.surcharge}</span>
                        </>
                      ) : null}
                    </th>
                    <td>{option.sent}</td>
                    <td>{option.delivered}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </section>
      ))}
    </>
  );
}

function Unavailable({ texts, href }: { texts: DeliveryTimesTexts; href: string }) {
  return (
    <div className="delivery-times__error notice notice--error" role="alert">
      <p>{texts.unavailable}</p>
      <p>
        <a href={href}>{texts.unavailableLink}</a>
      </p>
    </div>
  );
}

function DeliveryTimesView({ endpoint, overview, texts, customerServiceHref }: DeliveryTimesProps) {
  const [shownAt] = useState(() => Date.now());
  const query = useQuery({
    queryKey: ["delivery-times", endpoint],
    queryFn: ({ signal }) => fetchOverview(endpoint, signal),
    initialData: overview ?? undefined,
    initialDataUpdatedAt: shownAt,
    // Fresh until the cut-off or midnight: no request before then, one right after.
    staleTime: (q) => msUntilStale(q.state.data, q.state.dataUpdatedAt, Date.now()),
    refetchInterval: (q) =>
      msUntilRefetch(q.state.data, q.state.dataUpdatedAt, Date.now(), q.state.status === "error"),
    refetchOnWindowFocus: true,
    retry: 2,
  });
  // Times that could not be refreshed are out of date: the error text, never an old or empty table.
  if (query.isError || !query.data) return <Unavailable texts={texts} href={customerServiceHref} />;
  return <OverviewTables overview={query.data} texts={texts} />;
}

export function DeliveryTimes(props: DeliveryTimesProps) {
  const [client] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={client}>
      <DeliveryTimesView {...props} />
    </QueryClientProvider>
  );
}
