import type {} from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { uploadLimits } from "../uploads/upload-limits.ts";

/**
 * Reads a form with files as a stream, one part at a time, so photos never pile up in
 * memory or reach a handler before the CSRF token is checked. The shop's global CSRF
 * check reads the token from a parsed body, which a streamed form does not have yet:
 * routes using this opt out of it (config.csrf = false) and the token is checked here,
 * from the X-CSRF-Token header (the enhanced uploader) or the form's first field.
 */
export interface ReceivedFile {
  field: string;
  /** The name on the shopper's disk, for messages only: never used as a path. */
  name: string;
  data: Buffer;
  /** Larger than the size limit: data holds only its start. */
  tooLarge: boolean;
}

export interface MultipartForm {
  fields: Record<string, string[]>;
  /** More files were sent than one post may hold; the ones after the limit were not read. */
  tooMany: boolean;
}

/** For registering @fastify/multipart where these forms are read. */
export const multipartOptions = {
  // A file over the limit is reported per file (tooLarge), not as a failed request.
  throwFileSizeLimit: false,
  limits: {
    fileSize: uploadLimits.maxFileBytes,
    files: uploadLimits.maxFilesPerRequest,
    fields: 400,
    fieldSize: 4000,
    parts: 500,
  },
};

type Verified = boolean;

function checkToken(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  token?: string,
): Verified {
  if (token !== undefined) (request as { body: unknown }).body = { _csrf: token };
  let passed = false;
  // Synchronous: it either calls next or sends the 403 page itself.
  app.protectForm(request, reply, () => {
    passed = true;
  });
  return passed;
}

const fieldValue = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Undefined when the token was missing or wrong (the 403 page is then on its way).
 * A form sent without files (urlencoded) is read from its parsed body.
 */
export async function readMultipartForm(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  /** Called for each file in turn; `fields` holds the fields that came before it. */
  onFile: (file: ReceivedFile, fields: Readonly<Record<string, string[]>>) => Promise<void>,
): Promise<MultipartForm | undefined> {
  // Without a prototype: a field named "constructor" or "__proto__" is a field like any other.
  const fields: Record<string, string[]> = Object.create(null);
  const add = (name: string, value: string) => {
    if (name === "_csrf") return;
    const list = fields[name] ?? [];
    list.push(value);
    fields[name] = list;
  };

  if (!request.isMultipart()) {
    if (!checkToken(app, request, reply)) return undefined;
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(body)) {
      for (const v of Array.isArray(value) ? value : [value]) add(name, fieldValue(v));
    }
    return { fields, tooMany: false };
  }

  let verified = typeof request.headers["x-csrf-token"] === "string" && checkToken(app, request, reply);
  if (reply.sent) return undefined;
  let tooMany = false;
  let handlerFailure: unknown;
  const parts = request.parts();
  try {
    for await (const part of parts) {
      if (!verified) {
        // The token is the form's first field; anything before it is refused unread.
        const token = part.type === "field" && part.fieldname === "_csrf" ? fieldValue(part.value) : "";
        if (!checkToken(app, request, reply, token)) return undefined;
        verified = true;
        continue;
      }
      if (part.type === "field") {
        add(part.fieldname, fieldValue(part.value));
        continue;
      }
      const data = await part.toBuffer();
      // A browser sends an empty file part for a file input left empty.
      if (data.length === 0 && part.filename === "") continue;
      try {
        await onFile(
          { field: part.fieldname, name: part.filename, data, tooLarge: part.file.truncated },
          fields,
        );
      } catch (err) {
        handlerFailure = err;
        throw err;
      }
    }
  } catch (err) {
    if (err === handlerFailure) throw err;
    if ((err as { code?: string }).code === "FST_FILES_LIMIT") tooMany = true;
    // A body that is not the multipart it claims to be is the sender's mistake, not ours.
    else
      throw Object.assign(err as Error, { statusCode: (err as { statusCode?: number }).statusCode ?? 400 });
  }
  if (!verified) {
    checkToken(app, request, reply, "");
    return undefined;
  }
  return { fields, tooMany };
}
