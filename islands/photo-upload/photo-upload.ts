import { fill } from "../runtime/fill.ts";
import { pageLang, pluralText } from "../runtime/lang.ts";
import { readProps } from "../runtime/props.ts";
import type { PhotoUploadProps } from "./contract.ts";
import { UploadQueue } from "./upload-queue.ts";

export { contract } from "./contract.ts";

/**
 * The photo picker, enhanced (island: photo-upload): files chosen or dropped upload one
 * by one to the url in its props, each with its progress and a cancel button; the server's
 * answer (a list item with a hidden "upload" field, or the reason a file was refused)
 * takes its place. The form around it then sends the ids instead of the files, and
 * waits while uploads are still running. Without JavaScript the files go with the form.
 * Removing an uploaded photo (or cancelling one whose file has already arrived) deletes
 * it on the server (removeUrl), so it does not linger among the uploads.
 */
export function mount(element: HTMLElement): () => void {
  const doc = element.ownerDocument;
  const view = doc.defaultView;
  const form = element.closest("form");
  const input = element.querySelector<HTMLInputElement>('input[type="file"]');
  const list = element.querySelector<HTMLUListElement>("[data-upload-list]");
  const drop = element.querySelector<HTMLElement>("[data-upload-drop]");
  const dropHint = element.querySelector<HTMLElement>("[data-upload-drop-hint]");
  const status = element.querySelector<HTMLElement>("[data-upload-status]");
  const { url, removeUrl, project, texts } = readProps<PhotoUploadProps>(element);
  if (!view || !form || !input || !list || !drop) throw new Error("photo-upload: markup is incomplete");
  const lang = pageLang(element);
  const token = () => form.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value ?? "";
  const queue = new UploadQueue(2);
  /** Uploads on their way; `sent` once the whole file has reached the server (it will keep it). */
  const requests = new Map<number, { xhr: XMLHttpRequest; sent: boolean }>();
  const rows = new Map<number, HTMLLIElement>();
  if (dropHint) dropHint.hidden = false;

  const announce = (message: string) => {
    if (status) status.textContent = message;
  };
  const button = (label: string, ariaLabel: string, onClick: () => void) => {
    const b = doc.createElement("button");
    b.type = "button";
    b.className = "button button--small button--secondary";
    b.textContent = label;
    b.setAttribute("aria-label", ariaLabel);
    b.addEventListener("click", onClick);
    return b;
  };

  /** A row while the file travels: name, progress bar and its percentage, and cancel. */
  const row = (id: number, file: File) => {
    const li = doc.createElement("li");
    li.className = "staged-photo staged-photo--uploading";
    li.dataset.uploadItem = "";
    const name = doc.createElement("span");
    name.className = "staged-photo__name";
    name.textContent = file.name;
    const bar = doc.createElement("progress");
    bar.className = "staged-photo__progress";
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute("aria-label", fill(texts.progress, { name: file.name, percent: 0 }));
    const state = doc.createElement("span");
    state.className = "staged-photo__status";
    state.textContent = texts.uploading;
    li.append(
      name,
      bar,
      state,
      button(texts.cancel, fill(texts.cancelLabel, { name: file.name }), () => cancel(id)),
    );
    rows.set(id, li);
    list.append(li);
    return li;
  };

  /** A row that ended without an upload: the reason, and a way to clear it (or try again). */
  const ended = (id: number, message: string, canRetry: boolean) => {
    const li = rows.get(id);
    const item = queue.get(id);
    if (!li || !item) return;
    li.className = "staged-photo staged-photo--failed";
    const name = doc.createElement("span");
    name.className = "staged-photo__name";
    name.textContent = item.file.name;
    const reason = doc.createElement("span");
    reason.className = "staged-photo__status upload-error";
    reason.textContent = message;
    const actions: HTMLElement[] = [];
    if (canRetry) {
      actions.push(
        button(texts.retry, `${texts.retry}: ${item.file.name}`, () => {
          queue.retry(id);
          li.replaceWith(row(id, item.file));
          pump();
        }),
      );
    }
    actions.push(
      button(texts.remove, fill(texts.removeLabel, { name: item.file.name }), () => {
        li.remove();
        rows.delete(id);
      }),
    );
    li.replaceChildren(name, reason, ...actions);
  };

  /** The server's list items replace the row; each gets a remove button (the form then leaves it out). */
  const accepted = (id: number, html: string, canRetry = false) => {
    const li = rows.get(id);
    if (!li) return;
    const template = doc.createElement("template");
    template.innerHTML = html;
    template.content.querySelectorAll("script").forEach((s) => {
      s.remove();
    });
    const items = [...template.content.querySelectorAll<HTMLLIElement>("li[data-upload-item]")];
    const messages = [...template.content.querySelectorAll(".upload-error")].map((m) => m.textContent ?? "");
    if (items.length === 0) {
      ended(id, messages.join(" ") || texts.failed, canRetry);
      return;
    }
    li.replaceWith(...items);
    rows.delete(id);
  };

  /** Asks the server to delete an uploaded photo; true once it is gone (or was already). */
  const deleteOnServer = (uploadId: string) =>
    new Promise<boolean>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", removeUrl);
      xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
      xhr.setRequestHeader("X-CSRF-Token", token());
      xhr.setRequestHeader("Content-Type", "application/x-www-form-urlencoded");
      xhr.addEventListener("load", () =>
        resolve((xhr.status >= 200 && xhr.status < 300) || xhr.status === 404),
      );
      xhr.addEventListener("error", () => resolve(false));
      xhr.send(new URLSearchParams({ remove: uploadId }).toString());
    });

  /** The ids in an upload's answer (its list items' hidden fields). */
  const uploadIds = (html: string) => {
    const template = doc.createElement("template");
    template.innerHTML = html;
    return [
      ...template.content.querySelectorAll<HTMLInputElement>('li[data-upload-item] input[name="upload"]'),
    ].map((field) => field.value);
  };

  /** A remove button on an uploaded photo: the photo is deleted, then leaves the list. */
  const onRemoveClick = (event: MouseEvent) => {
    const button = event.target instanceof view.Element ? event.target.closest("[data-upload-remove]") : null;
    const item = button?.closest<HTMLLIElement>("li[data-upload-item]");
    const uploadId = item?.querySelector<HTMLInputElement>('input[name="upload"]')?.value;
    if (!(button instanceof view.HTMLButtonElement) || !item || !uploadId) return;
    // Without JavaScript the button posts the whole form; here only this photo goes.
    event.preventDefault();
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    const name = item.querySelector(".staged-photo__name")?.textContent ?? "";
    void deleteOnServer(uploadId).then((gone) => {
      if (gone) {
        item.remove();
        pump();
        announce(fill(texts.removed, { name }));
      } else {
        button.removeAttribute("aria-disabled");
        announce(fill(texts.removeFailed, { name }));
      }
    });
  };

  const send = (id: number) => {
    const item = queue.get(id);
    if (!item) return;
    const body = new FormData();
    // Fields before the file: the server reads the project before it reads the photo.
    if (project) body.append("project", project);
    body.append("photo", item.file, item.file.name);
    const xhr = new XMLHttpRequest();
    const request = { xhr, sent: false };
    requests.set(id, request);
    /** This request is still the file's own (not cancelled, nor replaced by a retry). */
    const current = () => requests.get(id) === request;
    xhr.open("POST", url);
    xhr.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    xhr.setRequestHeader("X-CSRF-Token", token());
    xhr.upload.addEventListener("load", () => {
      request.sent = true;
    });
    xhr.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable || !current()) return;
      queue.progress(id, event.loaded, event.total);
      const li = rows.get(id);
      const bar = li?.querySelector("progress");
      const percent = queue.get(id)?.percent ?? 0;
      if (bar) {
        bar.value = percent;
        bar.setAttribute("aria-label", fill(texts.progress, { name: item.file.name, percent }));
      }
      const state = li?.querySelector(".staged-photo__status");
      if (state) state.textContent = `${percent}%`;
    });
    xhr.addEventListener("load", () => {
      if (!current()) {
        // Cancelled after the file had arrived: the server kept it, so it is deleted now.
        if (xhr.status >= 200 && xhr.status < 300)
          for (const uploadId of uploadIds(xhr.responseText)) void deleteOnServer(uploadId);
        return;
      }
      requests.delete(id);
      if (xhr.status >= 200 && xhr.status < 300) {
        queue.settle(id, "done");
        accepted(id, xhr.responseText);
      } else if (xhr.status === 422 || xhr.status === 429 || xhr.status === 507) {
        // Refused, with the reason in the answer; after a 429 (too much from this connection
        // lately) or a 507 (the shop's storage is full) the same file may be tried again later.
        queue.settle(id, "failed");
        accepted(id, xhr.responseText, xhr.status === 429 || xhr.status === 507);
      } else {
        queue.settle(id, "failed");
        ended(id, texts.failed, true);
      }
      pump();
    });
    xhr.addEventListener("error", () => {
      if (!current()) return;
      requests.delete(id);
      queue.settle(id, "failed");
      ended(id, texts.failed, true);
      pump();
    });
    xhr.send(body);
  };

  const cancel = (id: number) => {
    const request = requests.get(id);
    requests.delete(id);
    queue.settle(id, "cancelled");
    // A file still travelling is simply dropped (the server keeps nothing of a broken
    // post); one that has arrived is being kept, so its answer is awaited and deleted.
    if (request && !request.sent) request.xhr.abort();
    ended(id, texts.cancelled, true);
    pump();
  };

  const pump = () => {
    for (const item of queue.startable()) send(item.id);
    // The form's own button: the remove buttons in the list are submit buttons too (without JavaScript).
    const submit = [
      ...form.querySelectorAll<HTMLButtonElement>('button[type="submit"], button:not([type])'),
    ].find((b) => !element.contains(b));
    if (queue.busy()) {
      submit?.setAttribute("aria-disabled", "true");
    } else {
      submit?.removeAttribute("aria-disabled");
      const ready = list.querySelectorAll("li[data-upload-item] input[name='upload']").length;
      if (ready > 0) announce(pluralText(texts.ready, ready, lang));
    }
  };

  const take = (files: FileList | File[]) => {
    const added = queue.add([...files]);
    for (const item of added) row(item.id, item.file);
    // The files now travel on their own; the form must not send them a second time.
    input.value = "";
    pump();
  };

  const onChange = () => {
    if (input.files && input.files.length > 0) take(input.files);
  };
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    drop.classList.add("photo-upload__drop--active");
    if (dropHint) dropHint.textContent = texts.dropActive;
  };
  const onDragLeave = (event: DragEvent) => {
    if (event.relatedTarget instanceof view.Node && drop.contains(event.relatedTarget)) return;
    drop.classList.remove("photo-upload__drop--active");
    if (dropHint) dropHint.textContent = texts.drop;
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    onDragLeave(event);
    const files = event.dataTransfer?.files;
    if (files && files.length > 0) take(files);
  };
  const onSubmit = (event: SubmitEvent) => {
    if (queue.busy()) {
      event.preventDefault();
      announce(texts.wait);
    }
  };

  list.addEventListener("click", onRemoveClick);
  input.addEventListener("change", onChange);
  drop.addEventListener("dragover", onDragOver);
  drop.addEventListener("dragleave", onDragLeave);
  drop.addEventListener("drop", onDrop);
  form.addEventListener("submit", onSubmit);
  return () => {
    for (const request of requests.values()) request.xhr.abort();
    list.removeEventListener("click", onRemoveClick);
    input.removeEventListener("change", onChange);
    drop.removeEventListener("dragover", onDragOver);
    drop.removeEventListener("dragleave", onDragLeave);
    drop.removeEventListener("drop", onDrop);
    form.removeEventListener("submit", onSubmit);
  };
}
