import type { Product } from "../../server/domain/catalogue.ts";
import { defineExamples } from "../runtime/define-examples.ts";
import { contract, type PhotoUploadParams } from "./contract.ts";

type LiveUpload = { product: Product; format: string; upload: PhotoUploadParams } | undefined;

export default defineExamples(contract, {
  // The editor's start form: posting it really starts a photo book project.
  default: {
    title: (ctx) => ctx.t("patterns.photo-upload.examples.default"),
    params: (ctx) => {
      const live = ctx.data.photoUpload as LiveUpload;
      return live && { ...live.upload, id: "pattern-photos" };
    },
    markup: (ctx, html) => {
      const live = ctx.data.photoUpload as LiveUpload;
      if (!live) return html;
      return (
        `<form class="form" method="post" action="${ctx.href("editorStart")}" enctype="multipart/form-data">\n` +
        `  <input type="hidden" name="_csrf" value="${ctx.csrfToken()}">\n` +
        `  <input type="hidden" name="product" value="${ctx.escape(live.product.id)}">\n` +
        `  <input type="hidden" name="format" value="${ctx.escape(live.format)}">\n` +
        `${html}` +
        `  <button class="button" type="submit">${ctx.escape(ctx.t("patterns.photo-upload.submit"))}</button>\n</form>`
      );
    },
  },
});
