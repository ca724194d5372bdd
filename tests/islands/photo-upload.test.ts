// @vitest-environment happy-dom
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/photo-upload/photo-upload.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

const html = await exampleHtml("photo-upload");

/** Stands in for the browser's XMLHttpRequest: the test decides how each upload goes. */
class FakeXhr {
  static made: FakeXhr[] = [];
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: FormData | string | undefined;
  status = 0;
  responseText = "";
  aborted = false;
  private listeners = new Map<string, Array<() => void>>();
  upload = {
    listeners: [] as Array<(e: { lengthComputable: boolean; loaded: number; total: number }) => void>,
    loaded: [] as Array<() => void>,
    addEventListener(
      name: string,
      fn: (e: { lengthComputable: boolean; loaded: number; total: number }) => void,
    ) {
      if (name === "progress") this.listeners.push(fn);
      if (name === "load") this.loaded.push(fn as () => void);
    },
  };
  constructor() {
    FakeXhr.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  addEventListener(name: string, fn: () => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
  }
  send(body: FormData | string) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
  }
  progress(loaded: number, total: number) {
    for (const fn of this.upload.listeners) fn({ lengthComputable: true, loaded, total });
  }
  /** The whole file has reached the server; its answer has not come yet. */
  sent() {
    this.progress(100, 100);
    for (const fn of this.upload.loaded) fn();
  }
  answer(status: number, html: string) {
    this.status = status;
    this.responseText = html;
    for (const fn of this.listeners.get("load") ?? []) fn();
  }
}

const staged = (id: string, name: string) =>
  `<li class="staged-photo" data-upload-item><img src="/uploads/${id}/thumbnail.jpg" alt=""><span class="staged-photo__name">${name}</span><span class="staged-photo__status">Klaar</span><input type="hidden" name="upload" value="${id}"><button type="submit" formaction="/fotoboek-maken/fotos/verwijderen" name="remove" value="${id}" aria-label="Verwijder ${name} uit je keuze" data-upload-remove>Verwijder</button></li>`;

/** The requests that asked the server to delete a photo, by the id they named. */
const removals = () =>
  FakeXhr.made
    .filter((x) => x.url === "/fotoboek-maken/fotos/verwijderen")
    .map((x) => new URLSearchParams(String(x.body)).get("remove"));

let unmount: (() => void) | undefined;
let form: HTMLFormElement;

/** The uploader's props as the server wrote them into the page. */
const propsScript = () =>
  document.querySelector('[data-island="photo-upload"] > script[data-props]') as HTMLScriptElement;
const props = () => JSON.parse(propsScript().textContent ?? "{}");
const texts = () => props().texts;
const token = () => form.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value;

/**
 * The pattern library's uploader in its form (the editor's start), mounted. The project
 * page's uploader is the same with its project in the props; photos uploaded before are
 * the server's list items.
 */
function render(project?: string, already = "") {
  document.body.innerHTML = html;
  if (project) propsScript().textContent = JSON.stringify({ ...props(), project });
  const list = document.querySelector("[data-upload-list]") as HTMLElement;
  list.innerHTML = already;
  form = document.querySelector("form") as HTMLFormElement;
  unmount = mount(document.querySelector('[data-island="photo-upload"]') as HTMLElement);
}

function choose(...names: string[]) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
  const files = names.map(
    (name) => new File([new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3])], name, { type: "image/jpeg" }),
  );
  Object.defineProperty(input, "files", { value: files, configurable: true });
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

const rows = () => [...document.querySelectorAll<HTMLLIElement>("[data-upload-list] li")];
const ids = () =>
  [...document.querySelectorAll<HTMLInputElement>('input[name="upload"]')].map((i) => i.value);

afterAll(closeExamples);
beforeEach(() => {
  FakeXhr.made = [];
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

describe("the photo-upload island", () => {
  it("offers dropping photos as well, once it runs", () => {
    render();
    expect(document.querySelector<HTMLElement>("[data-upload-drop-hint]")?.hidden).toBe(false);
  });

  it("uploads each chosen photo on its own, the first alone, with the form's token and the project first", () => {
    render("project-id-0123456789ab");
    choose("strand.jpg", "bos.jpg", "kat.jpg");
    expect(rows().map((r) => r.querySelector(".staged-photo__name")?.textContent)).toEqual([
      "strand.jpg",
      "bos.jpg",
      "kat.jpg",
    ]);
    expect(FakeXhr.made).toHaveLength(1);
    const [first] = FakeXhr.made as [FakeXhr];
    expect(first.method).toBe("POST");
    expect(first.url).toBe("/fotoboek-maken/fotos");
    expect(first.headers["x-requested-with"]).toBe("XMLHttpRequest");
    expect(first.headers["x-csrf-token"]).toBe(token());
    expect([...((first.body as FormData | undefined)?.keys() ?? [])]).toEqual(["project", "photo"]);
    // The files travel on their own now: the form must not send them again.
    expect(document.querySelector<HTMLInputElement>('input[type="file"]')?.value).toBe("");

    first.answer(200, staged("id-strand", "strand.jpg"));
    expect(FakeXhr.made).toHaveLength(3);
  });

  it("shows each photo's progress, then the server's item with its hidden id and a remove button", () => {
    render();
    choose("strand.jpg");
    const xhr = FakeXhr.made[0] as FakeXhr;
    xhr.progress(30, 120);
    const progress = rows()[0]?.querySelector("progress");
    expect(progress?.value).toBe(25);
    expect(progress?.getAttribute("aria-label")).toBe("strand.jpg: 25%");
    xhr.answer(200, staged("id-strand", "strand.jpg"));
    expect(ids()).toEqual(["id-strand"]);
    expect(document.querySelector("[data-upload-status]")?.textContent).toBe("1 foto klaar");
    const remove = rows()[0]?.querySelector<HTMLButtonElement>("[data-upload-remove]");
    expect(remove?.getAttribute("aria-label")).toBe("Verwijder strand.jpg uit je keuze");
  });

  it("deletes a removed photo on the server, with the form's token, and only then takes it off the list", () => {
    render(undefined, staged("id-server", "zee.jpg"));
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    rows()[0]?.querySelector("[data-upload-remove]")?.dispatchEvent(click);
    // The button would post the whole form without JavaScript; here only this photo goes.
    expect(click.defaultPrevented).toBe(true);
    const removal = FakeXhr.made.at(-1) as FakeXhr;
    expect([removal.method, removal.url]).toEqual(["POST", "/fotoboek-maken/fotos/verwijderen"]);
    expect(removal.headers["x-csrf-token"]).toBe(token());
    expect(removal.headers["x-requested-with"]).toBe("XMLHttpRequest");
    expect(removals()).toEqual(["id-server"]);
    expect(ids()).toEqual(["id-server"]);
    removal.answer(204, "");
    return vi.waitFor(() => {
      expect(ids()).toEqual([]);
      expect(document.querySelector("[data-upload-status]")?.textContent).toBe("zee.jpg is verwijderd.");
    });
  });

  it("keeps a photo the server could not delete, and says so", async () => {
    render(undefined, staged("id-server", "zee.jpg"));
    rows()[0]?.querySelector<HTMLButtonElement>("[data-upload-remove]")?.click();
    (FakeXhr.made.at(-1) as FakeXhr).answer(503, "");
    await vi.waitFor(() =>
      expect(document.querySelector("[data-upload-status]")?.textContent).toBe(
        "zee.jpg kon niet worden verwijderd. Probeer het opnieuw.",
      ),
    );
    expect(ids()).toEqual(["id-server"]);
  });

  it("deletes a photo cancelled after its file had arrived, once the server names it", () => {
    render();
    choose("strand.jpg");
    const upload = FakeXhr.made[0] as FakeXhr;
    upload.sent();
    rows()[0]?.querySelector<HTMLButtonElement>("button")?.click();
    // Aborting now would leave the photo on the server without anyone knowing its id.
    expect(upload.aborted).toBe(false);
    expect(rows()[0]?.textContent).toContain("Geannuleerd");
    upload.answer(200, staged("id-late", "strand.jpg"));
    expect(removals()).toEqual(["id-late"]);
    expect(ids()).toEqual([]);
    expect(rows()[0]?.textContent).toContain("Geannuleerd");
  });

  it("shows the server's reason for a refused file", () => {
    render();
    choose("notities.jpg");
    (FakeXhr.made[0] as FakeXhr).answer(
      422,
      '<p class="upload-error">notities.jpg: dit is geen foto. We kunnen JPEG, PNG, WebP en HEIC lezen.</p>',
    );
    expect(rows()[0]?.textContent).toContain("notities.jpg: dit is geen foto.");
    expect(ids()).toEqual([]);
  });

  it("shows why a photo was not taken when the connection uploaded too much lately, and lets it be tried again", () => {
    render();
    choose("strand.jpg");
    (FakeXhr.made[0] as FakeXhr).answer(
      429,
      '<p class="upload-error">strand.jpg: vanaf deze verbinding zijn in korte tijd heel veel foto\'s geüpload, dus deze foto is niet bewaard. Probeer het over 12 minuten opnieuw.</p>',
    );
    expect(rows()[0]?.textContent).toContain("Probeer het over 12 minuten opnieuw.");
    expect(ids()).toEqual([]);
    const retry = [...(rows()[0]?.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Opnieuw");
    retry?.click();
    expect(FakeXhr.made).toHaveLength(2);
  });

  it("shows the server's words when the shop cannot store more photos (507), and lets the photo be tried again", () => {
    render();
    choose("strand.jpg");
    (FakeXhr.made[0] as FakeXhr).answer(
      507,
      "<p class=\"upload-error\">strand.jpg: de winkel kan op dit moment geen foto's meer bewaren. Probeer het later nog eens; je andere foto's blijven bewaard.</p>",
    );
    expect(rows()[0]?.textContent).toContain("de winkel kan op dit moment geen foto's meer bewaren");
    expect(ids()).toEqual([]);
    const retry = [...(rows()[0]?.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Opnieuw");
    retry?.click();
    expect(FakeXhr.made).toHaveLength(2);
  });

  it("cancels an upload on request, and can try it again", () => {
    render();
    choose("strand.jpg");
    const cancel = rows()[0]?.querySelector<HTMLButtonElement>("button");
    expect(cancel?.getAttribute("aria-label")).toBe("Annuleer het uploaden van strand.jpg");
    cancel?.click();
    expect((FakeXhr.made[0] as FakeXhr).aborted).toBe(true);
    expect(removals()).toEqual([]);
    expect(rows()[0]?.textContent).toContain("Geannuleerd");
    const retry = [...(rows()[0]?.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Opnieuw");
    retry?.click();
    expect(FakeXhr.made).toHaveLength(2);
  });

  it("holds the form back while photos are still uploading", () => {
    // A photo from before: its remove button is a submit button too, and must not be taken for the form's.
    render(undefined, staged("id-earlier", "zee.jpg"));
    choose("strand.jpg");
    const submit = new Event("submit", { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(document.querySelector("[data-upload-status]")?.textContent).toBe(texts().wait);
    const own = form.querySelector(":scope > button[type='submit']");
    expect(own?.getAttribute("aria-disabled")).toBe("true");
    (FakeXhr.made[0] as FakeXhr).answer(200, staged("id-strand", "strand.jpg"));
    expect(own?.hasAttribute("aria-disabled")).toBe(false);
    const again = new Event("submit", { bubbles: true, cancelable: true });
    form.dispatchEvent(again);
    expect(again.defaultPrevented).toBe(false);
  });

  it("offers to try again when the connection fails", () => {
    render();
    choose("strand.jpg");
    (FakeXhr.made[0] as FakeXhr).answer(500, "");
    expect(rows()[0]?.textContent).toContain(texts().failed);
    expect([...(rows()[0]?.querySelectorAll("button") ?? [])].map((b) => b.textContent)).toEqual([
      "Opnieuw",
      "Verwijder",
    ]);
  });
});

describe("an uploader whose props lack its address", () => {
  it("leaves the plain file field, marked failed, and is reported once by name and prop", async () => {
    document.body.innerHTML = html;
    const { url: _url, ...rest } = props();
    propsScript().textContent = JSON.stringify(rest);
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "photo-upload",
      react: false,
      load: () => import("../../islands/photo-upload/photo-upload.ts"),
    } as const;
    await createRuntime([hook], document, report).scan(document);
    const uploader = document.querySelector('[data-island="photo-upload"]') as HTMLElement;
    expect(uploader.getAttribute("data-island-state")).toBe("failed");
    expect(document.querySelector<HTMLElement>("[data-upload-drop-hint]")?.hidden).toBe(true);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"photo-upload"');
    expect(report.mock.calls[0]?.[0]).toMatch(/data-props\W+url/);
  });
});
