import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef } from "react";
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components/Modal";
import { fetchFragment, queryClient } from "../react/query-client.ts";
import type { ModalProps, ModalTexts } from "./contract.ts";

function RemoteContent({ url, texts }: { url: string; texts: ModalTexts }) {
  const { data, isPending, isError } = useQuery({
    queryKey: ["fragment", url],
    queryFn: () => fetchFragment(url),
  });
  if (isPending) {
    return (
      <p className="modal__status" role="status">
        {texts.loading}
      </p>
    );
  }
  if (isError) {
    return (
      <p className="modal__status" role="alert">
        {texts.failed} <a href={url}>{texts.openPage}</a>
      </p>
    );
  }
  // Our own server's fragment; scripts in it are not run (innerHTML), as for ajax swaps.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted HTML from the shop's own fragment route
  return <div className="modal__content" dangerouslySetInnerHTML={{ __html: data }} />;
}

/**
 * Content that lives on the page: moved into the dialog while it is open and back when
 * it closes, so ids stay unique and anything inside keeps its state.
 */
function PageContent({ source }: { source: string }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const body = document.getElementById(source)?.querySelector<HTMLElement>("[data-modal-body]");
    const target = box.current;
    if (!body || !target) return;
    const nodes = [...body.childNodes];
    target.append(...nodes);
    return () => body.append(...nodes);
  }, [source]);
  return <div className="modal__content" ref={box} />;
}

/** How many mounted triggers can show each page section (two triggers may share one). */
const claims = new WeakMap<HTMLElement, number>();

/**
 * The page's copy of a modal's content hides (CSS: [data-modal-ready]) only once a
 * trigger that can show it is on the page: should this island's chunk fail to load,
 * the content stays where the shopper can read it.
 */
function useClaimedSource(source: string | undefined) {
  useEffect(() => {
    const section = source ? document.getElementById(source) : null;
    if (!section) return;
    claims.set(section, (claims.get(section) ?? 0) + 1);
    section.dataset.modalReady = "";
    return () => {
      const left = (claims.get(section) ?? 1) - 1;
      claims.set(section, left);
      if (left === 0) delete section.dataset.modalReady;
    };
  }, [source]);
}

/**
 * A trigger that opens a modal dialog (react-aria): page scroll is locked while it is
 * open, focus stays inside and returns to the trigger, Escape and the close button close it.
 */
export function ModalView({ label, title, url, source, texts }: ModalProps) {
  useClaimedSource(url ? undefined : source);
  return (
    <QueryClientProvider client={queryClient}>
      <DialogTrigger>
        <Button className="modal-trigger__button">{label}</Button>
        <ModalOverlay className="modal-overlay" isDismissable>
          <Modal className="modal">
            <Dialog className="modal__dialog">
              <div className="modal__header">
                <Heading slot="title" className="modal__title">
                  {title}
                </Heading>
                <Button slot="close" className="modal__close" aria-label={texts.close}>
                  <span aria-hidden="true">×</span>
                </Button>
              </div>
              {url ? (
                <RemoteContent url={url} texts={texts} />
              ) : source ? (
                <PageContent source={source} />
              ) : null}
            </Dialog>
          </Modal>
        </ModalOverlay>
      </DialogTrigger>
    </QueryClientProvider>
  );
}
